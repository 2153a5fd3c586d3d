// Runs one loop implementation in this (child) process and prints its cost as JSON: CPU and wall time
// per model call over the measured runs (after warm-up), CPU per call during the warm-up (JIT included),
// and the process's peak RSS.
export async function measure({ runOnce, runs, warmup, callsPerRun }) {
  const warmupCpuBefore = process.cpuUsage();
  for (let index = 0; index < warmup; index++) await runOnce();
  const warmupCpu = process.cpuUsage(warmupCpuBefore);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let index = 0; index < runs; index++) await runOnce();
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - wallBefore;
  const calls = runs * callsPerRun;
  process.stdout.write(
    `${JSON.stringify({ cpuUsPerStep: (cpu.user + cpu.system) / calls, systemUsPerStep: cpu.system / calls, warmupCpuUsPerStep: (warmupCpu.user + warmupCpu.system) / Math.max(1, warmup * callsPerRun), wallMsPerStep: wallMs / calls, peakRssMB: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}
