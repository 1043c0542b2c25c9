/**
 * `--profile FILE`: a V8 CPU profile of the main thread over the last concurrent pass only (start-up,
 * plan import and the sequential pass left out), for Chrome DevTools or any .cpuprofile viewer.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

export interface CpuProfiler {
  stop(): Promise<void>;
}

export async function startCpuProfile(file: string): Promise<CpuProfiler> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
    );
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
