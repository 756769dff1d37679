import { Writable } from 'node:stream';

/** A stream that keeps everything written to it, as a pipe would deliver it (output of a run in this process). */
export class Capture extends Writable {
  private readonly chunks: Buffer[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    done();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
