/**
 * CPU time (user + system) of one call of `run`, in microseconds, after a tenth as many unmeasured
 * calls for the JIT: CPU time rather than wall time, since other processes share the machine.
 */
export function cpuMicrosPerCall(run: () => unknown, calls: number): number {
  for (let i = 0; i < calls / 10; i++) run();
  const started = process.cpuUsage();
  for (let i = 0; i < calls; i++) run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}
