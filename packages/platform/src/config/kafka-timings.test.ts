import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultKafkaTimings } from './load-config';

/**
 * The consumer group timings live in the code (defaultKafkaTimings, which `npm run
 * start:distributed` uses as is); docker-compose.yml, the k8s ConfigMap and the operator's table in
 * docs/distributed.md repeat them. These tests keep every copy equal to the code.
 */

const root = path.resolve(__dirname, '../../../..');
const names = Object.keys(defaultKafkaTimings) as Array<keyof typeof defaultKafkaTimings>;

/** Every `NAME: value` of the variable in a YAML file, quotes removed. */
function yamlValues(file: string, name: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(new RegExp(`^\\s*${name}:\\s*['"]?([^'"\\s#]+)['"]?\\s*(#.*)?$`, 'gm'))].map(
    (match) => match[1] ?? '',
  );
}

describe('the Kafka consumer timings', () => {
  test.each(['docker-compose.yml', 'k8s/base/config.yaml'])(
    'when %s sets them, then they equal the code defaults',
    (file) => {
      const found = Object.fromEntries(names.map((name) => [name, yamlValues(file, name)]));
      expect(found).toEqual(Object.fromEntries(names.map((name) => [name, [String(defaultKafkaTimings[name])]])));
    },
  );

  test('when docs/distributed.md lists them, then its table shows the code defaults', () => {
    const text = readFileSync(path.join(root, 'docs/distributed.md'), 'utf8');
    const rows = Object.fromEntries(
      names.map((name) => [name, new RegExp(`^\\| \`${name}\` \\| (\\d+) \\|`, 'm').exec(text)?.[1]]),
    );
    expect(rows).toEqual(Object.fromEntries(names.map((name) => [name, String(defaultKafkaTimings[name])])));
  });

  test('when a member heartbeats, then it does so several times per session (kafkajs needs heartbeat < session)', () => {
    expect(defaultKafkaTimings.KAFKA_HEARTBEAT_INTERVAL_MS * 3).toBeLessThanOrEqual(
      defaultKafkaTimings.KAFKA_SESSION_TIMEOUT_MS,
    );
  });
});
