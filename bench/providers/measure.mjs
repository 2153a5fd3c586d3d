// Runs one loop implementation in this (child) process and prints its cost as JSON: CPU and wall time
// per model call over the measured loops (after warm-up), CPU per call during the warm-up (JIT included),
// the process's peak RSS, and the heap after GC before any loop, halfway through the last batch of loops
// (all `concurrency` loops in flight) and after it with the loops' results still held.
//
// `concurrency` loops run at once (Promise.all) per batch; warm-up and measured loop counts are rounded
// up to whole batches. `runOnce` returns what the loop leaves to its caller (the agent, the messages, the
// result), which is held until the heap is read. The child must run with `--expose-gc`.
export async function measure({ runOnce, runs, warmup, callsPerRun, concurrency = 1 }) {
  if (typeof global.gc !== 'function') throw new Error('Run the loop child with `node --expose-gc`.');
  const batch = () => Promise.all(Array.from({ length: concurrency }, () => runOnce()));
  const heapAfterGc = () => {
    global.gc();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const heapBaseMB = heapAfterGc();

  const warmupBatches = Math.ceil(warmup / concurrency);
  const warmupCpuBefore = process.cpuUsage();
  for (let index = 0; index < warmupBatches; index++) await batch();
  const warmupCpu = process.cpuUsage(warmupCpuBefore);

  const batches = Math.max(1, Math.ceil(runs / concurrency));
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let index = 0; index < batches; index++) await batch();
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - wallBefore;

  // One more batch, not timed: the heap halfway through it (every loop in flight) and after it.
  let heapInFlightMB;
  const halfway = setTimeout(
    () => {
      heapInFlightMB = heapAfterGc();
    },
    wallMs / batches / 2,
  );
  const held = await batch();
  clearTimeout(halfway);
  const heapHeldMB = heapAfterGc();
  if (held.length !== concurrency) throw new Error(`lost loops: ${held.length} of ${concurrency}`);

  const calls = batches * concurrency * callsPerRun;
  const warmupCalls = Math.max(1, warmupBatches * concurrency * callsPerRun);
  process.stdout.write(
    `${JSON.stringify({
      cpuUsPerStep: (cpu.user + cpu.system) / calls,
      systemUsPerStep: cpu.system / calls,
      warmupCpuUsPerStep: (warmupCpu.user + warmupCpu.system) / warmupCalls,
      wallMsPerStep: wallMs / calls,
      peakRssMB: process.resourceUsage().maxRSS / 1024,
      heapBaseMB,
      heapInFlightMB: heapInFlightMB ?? heapHeldMB,
      heapHeldMB,
    })}\n`,
  );
}
