/** Whether the run is inside CI (`CI` set to anything but false or 0), as most CI systems and tools read it. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
}
