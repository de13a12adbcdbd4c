import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './deployment';
import { kafkaProcessName, secantusProcessName, type WatchedProcess } from './process-stats';

/**
 * Distributed mode's engines. KAFKA_BROKERS and MONGO_URL name engines someone already runs; the
 * bench uses its own topic prefix and database prefix there and never starts or stops them. When
 * neither is set and no local Kafka or SecantusDB runs, it starts the project's local engines
 * (tools/kafka, tools/secantus) and stops them afterwards.
 */

export interface Engines {
  kafkaBrokers: string;
  mongoUrl: string;
  /** Kafka's and SecantusDB's processes on this machine, when found: their CPU is part of the system. */
  processes: WatchedProcess[];
  /** The Kafka broker's pid when the bench started it here (the drill pauses it); undefined for someone else's. */
  ownKafkaPid?: number;
  stop(): Promise<void>;
}

/** Local processes whose command line contains `needle` (from /proc). */
export function findProcesses(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(needle) && Number(entry) !== process.pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function engineProcesses(): WatchedProcess[] {
  return [
    ...findProcesses('kafka.Kafka').map((pid) => ({ name: kafkaProcessName, pid })),
    ...findProcesses('secantusd-rs --config').map((pid) => ({ name: secantusProcessName, pid })),
  ];
}

function runUp(script: string): string {
  const output = execFileSync('bash', [path.join(repoRoot, script)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const match = /export \w+=(\S+)/.exec(output);
  if (!match?.[1]) throw new Error(`${script} printed no export line`);
  return match[1];
}

export async function useEngines(progress: (line: string) => void): Promise<Engines> {
  const { KAFKA_BROKERS, MONGO_URL } = process.env;
  if (KAFKA_BROKERS && MONGO_URL) {
    return {
      kafkaBrokers: KAFKA_BROKERS,
      mongoUrl: MONGO_URL,
      processes: engineProcesses(),
      stop: async () => undefined,
    };
  }
  if (KAFKA_BROKERS || MONGO_URL) throw new Error('set both KAFKA_BROKERS and MONGO_URL, or neither');
  const running = engineProcesses();
  if (running.length > 0) {
    throw new Error(
      `Kafka or SecantusDB already runs here (pids ${running.map((p) => p.pid).join(', ')}), perhaps someone else's: ` +
        'the bench does not start or stop engines it did not start. To run on them, set KAFKA_BROKERS and MONGO_URL ' +
        '(e.g. KAFKA_BROKERS=localhost:9092 MONGO_URL=mongodb://127.0.0.1:27017/); the bench uses its own topic and database prefixes.',
    );
  }
  progress('starting local Kafka and SecantusDB (tools/kafka, tools/secantus)…');
  const kafkaBrokers = runUp('tools/kafka/up.sh');
  const mongoUrl = runUp('tools/secantus/up.sh');
  return {
    kafkaBrokers,
    mongoUrl,
    processes: engineProcesses(),
    ownKafkaPid: Number(readFileSync(path.join(repoRoot, '.kafka', 'kafka.pid'), 'utf8').trim()) || undefined,
    stop: async () => {
      progress('stopping the local Kafka and SecantusDB the bench started…');
      execFileSync('bash', [path.join(repoRoot, 'tools/kafka/down.sh')], { stdio: 'inherit' });
      execFileSync('bash', [path.join(repoRoot, 'tools/secantus/down.sh')], { stdio: 'inherit' });
    },
  };
}
