/**
 * `--profile FILE`: a V8 CPU profile of the main thread over the last concurrent pass only (start-up,
 * plan import and the sequential pass left out), for Chrome DevTools or any .cpuprofile viewer.
 * `--heap-profile FILE`: a sampling heap profile over the same pass, every allocation counted
 * whether or not it was collected since (what the garbage collector had to deal with), for
 * Chrome DevTools' memory panel (.heapprofile).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

export interface RunningProfile {
  stop(): Promise<void>;
}

type Post = (method: string, params?: object) => Promise<unknown>;

function openSession(): { session: Session; post: Post } {
  const session = new Session();
  session.connect();
  const post: Post = (method, params) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    );
  return { session, post };
}

export async function startHeapProfile(file: string): Promise<RunningProfile> {
  const { session, post } = openSession();
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    stop: async () => {
      const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

export async function startCpuProfile(file: string): Promise<RunningProfile> {
  const { session, post } = openSession();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 500 });
  await post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
