/**
 * The services behind the gateway and the ports they listen on by default. The gateway's
 * upstream URLs and single-machine mode both start from this one list.
 */
export const serviceNames = ['auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime'] as const;

export type ServiceName = (typeof serviceNames)[number];

export const defaultPorts = {
  gateway: 3000,
  auth: 3001,
  commands: 3002,
  'kick-link': 3003,
  'bot-runner': 3004,
  games: 3005,
  realtime: 3006,
  'kick-sandbox': 3100,
} as const satisfies Record<ServiceName | 'gateway' | 'kick-sandbox', number>;
