// The artifact archive every seeded job with artifacts has: the same bytes for the same seed, the
// size the job entity reports.
import type { World } from '../store/world.js';
import { seededBytes } from '../util/random.js';
import { buildZip } from '../util/zip.js';

/** The size of a job's seeded artifact archive. */
export function artifactSize(jobId: number): number {
  return 64 * 1024 + (jobId % 16) * 16 * 1024;
}

/** A job's seeded artifact archive: a zip of build/output.bin and build/report.txt. */
export function artifactArchive(w: World, jobId: number): Buffer {
  const size = artifactSize(jobId);
  const report = Buffer.from(`job ${jobId}\nstatus: success\n`);
  const overhead = 22 + 2 * (30 + 46) + 'build/output.bin'.length * 2 + 'build/report.txt'.length * 2 + report.length;
  const bin = seededBytes(w.h(80, jobId), Math.max(1024, size - overhead));
  return buildZip([
    { name: 'build/output.bin', data: bin },
    { name: 'build/report.txt', data: report },
  ]);
}
