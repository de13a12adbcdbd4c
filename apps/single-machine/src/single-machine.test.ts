import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@kickstand/platform/config';
import { createSilentLogger } from '@kickstand/platform/log';
import { eventually } from '@kickstand/platform/testing';
import { io } from 'socket.io-client';
import { singleMachineConfigSchema } from './config';
import { startSingleMachine, type SingleMachine } from './single-machine';

const anyFreePorts = {
  PORT: '0',
  AUTH_PORT: '0',
  COMMANDS_PORT: '0',
  KICK_LINK_PORT: '0',
  BOT_RUNNER_PORT: '0',
  GAMES_PORT: '0',
  REALTIME_PORT: '0',
  KICK_SANDBOX_PORT: '0',
};

describe('single-machine mode', () => {
  let dataDir: string;
  let webDir: string;
  let kickstand: SingleMachine;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-data-'));
    webDir = await mkdtemp(path.join(tmpdir(), 'kickstand-web-'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const config = loadConfig(singleMachineConfigSchema, { ...anyFreePorts, DATA_DIR: dataDir, WEB_DIST_DIR: webDir });
    kickstand = await startSingleMachine(config, createSilentLogger());
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(webDir, { recursive: true, force: true });
  });

  test('when everything has started, then /api/health lists the six services up', async () => {
    const response = await fetch(`${kickstand.url}/api/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { status: string; services: { name: string; status: string }[] } };
    expect(body.data.status).toBe('up');
    expect(body.data.services.map(({ name, status }) => `${name}:${status}`)).toEqual([
      'auth:up',
      'commands:up',
      'kick-link:up',
      'bot-runner:up',
      'games:up',
      'realtime:up',
    ]);
  });

  test('when the page is opened, then the web app is served', async () => {
    const response = await fetch(`${kickstand.url}/`, { headers: { accept: 'text/html' } });
    expect(await response.text()).toContain('<div id="root"></div>');
  });

  test('when no Kick credentials are set, then the Kick sandbox runs too', async () => {
    const sandboxPort = kickstand.ports['kick-sandbox'];
    expect(sandboxPort).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${sandboxPort}/healthz`)).status).toBe(200);
  });

  test('when a dashboard connects on the public port, over websocket or polling, then realtime serves it there (the chat history arrives)', async () => {
    const account = { email: 'dash@example.com', username: 'dash', password: 'Vq7!rotating-Kettle-92' };
    const json = { 'content-type': 'application/json' };
    await fetch(`${kickstand.url}/api/platform/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(account),
    });
    const login = await fetch(`${kickstand.url}/api/platform/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    for (const transport of ['websocket', 'polling']) {
      const socket = io(kickstand.url, {
        auth: { token },
        transports: [transport],
        reconnection: false,
        forceNew: true,
      });
      try {
        const history = await new Promise<unknown>((resolve, reject) => {
          socket.once('chat-history', resolve);
          socket.once('connect_error', reject);
        });
        expect({ transport, history }).toEqual({ transport, history: { messages: [], events: [] } });
      } finally {
        socket.close();
      }
    }
  });

  test('when a user logs out, then their old token is refused by the gateway and on a service port, and a new sign-in works', async () => {
    const account = { email: 'leaving@example.com', username: 'leaving', password: 'Vq7!rotating-Kettle-91' };
    const post = (url: string, body: unknown, token?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    expect((await post(`${kickstand.url}/api/platform/register`, account)).status).toBe(201);
    const login = await post(`${kickstand.url}/api/platform/login`, {
      email: account.email,
      password: account.password,
    });
    const { token } = ((await login.json()) as { data: { token: string } }).data;
    const bearer = { authorization: `Bearer ${token}` };
    const commandsPort = `http://127.0.0.1:${kickstand.ports.commands}`;
    expect((await fetch(`${commandsPort}/api/commands`, { headers: bearer })).status).toBe(200);

    expect((await post(`${kickstand.url}/api/platform/logout`, {}, token)).status).toBe(204);

    const sessionEnded = { success: false, error: 'Your session has ended: please sign in again' };
    await eventually(async () => {
      const atGateway = await fetch(`${kickstand.url}/api/commands`, { headers: bearer });
      expect({ status: atGateway.status, body: await atGateway.json() }).toEqual({ status: 401, body: sessionEnded });
      const atService = await fetch(`${commandsPort}/api/commands`, { headers: bearer });
      expect({ status: atService.status, body: await atService.json() }).toEqual({ status: 401, body: sessionEnded });
    });
    const again = await post(`${kickstand.url}/api/platform/login`, {
      email: account.email,
      password: account.password,
    });
    const fresh = ((await again.json()) as { data: { token: string } }).data.token;
    expect(
      (await fetch(`${kickstand.url}/api/commands`, { headers: { authorization: `Bearer ${fresh}` } })).status,
    ).toBe(200);
  });

  test('when stopped, then nothing answers any more and every service wrote its store under DATA_DIR', async () => {
    await kickstand.stop();
    await expect(fetch(`${kickstand.url}/healthz`)).rejects.toThrow();
    for (const service of ['gateway', 'auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime']) {
      expect(existsSync(path.join(dataDir, service))).toBe(true);
    }
  });
});

describe('the front door setting', () => {
  test.each(['thread', 'inline'])(
    "when FRONT_DOOR=%s, then the public port answers the API, socket.io and Kick's webhook (a forged delivery: 401)",
    async (frontDoor) => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-data-'));
      const config = loadConfig(singleMachineConfigSchema, {
        ...anyFreePorts,
        DATA_DIR: dataDir,
        FRONT_DOOR: frontDoor,
      });
      const kickstand = await startSingleMachine(config, createSilentLogger());
      try {
        expect((await fetch(`${kickstand.url}/api/health`)).status).toBe(200);
        const polling = await fetch(`${kickstand.url}/socket.io/?EIO=4&transport=polling`);
        expect(polling.status).toBe(200);
        expect((await polling.text()).startsWith('0{"sid":')).toBe(true);
        const forged = await fetch(`${kickstand.url}/api/kick/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'kick-event-message-id': 'forged-1',
            'kick-event-signature': 'bm90IGEgc2lnbmF0dXJl',
            'kick-event-message-timestamp': new Date().toISOString(),
            'kick-event-type': 'chat.message.sent',
          },
          body: '{}',
        });
        expect({ status: forged.status, body: await forged.json() }).toEqual({
          status: 401,
          body: { success: false, error: 'Invalid webhook signature' },
        });
      } finally {
        await kickstand.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
      await expect(fetch(`${kickstand.url}/api/health`)).rejects.toThrow();
    },
  );
});

describe('single-machine mode with Kick credentials', () => {
  test('when KICK_CLIENT_ID is set, then the sandbox does not start', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-data-'));
    const config = loadConfig(singleMachineConfigSchema, {
      ...anyFreePorts,
      DATA_DIR: dataDir,
      KICK_CLIENT_ID: 'real-client',
      KICK_CLIENT_SECRET: 'real-secret',
    });
    const kickstand = await startSingleMachine(config, createSilentLogger());
    try {
      expect(kickstand.ports['kick-sandbox']).toBeUndefined();
    } finally {
      await kickstand.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('when a port is taken, then start fails and what had started is stopped again', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-data-'));
    const first = await startSingleMachine(
      loadConfig(singleMachineConfigSchema, { ...anyFreePorts, DATA_DIR: path.join(dataDir, 'a') }),
      createSilentLogger(),
    );
    try {
      const clash = loadConfig(singleMachineConfigSchema, {
        ...anyFreePorts,
        DATA_DIR: path.join(dataDir, 'b'),
        GAMES_PORT: String(first.ports.games),
      });
      await expect(startSingleMachine(clash, createSilentLogger())).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the data folder', () => {
  test('when another live Kickstand holds DATA_DIR, then start refuses with a message naming it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-data-'));
    // pid 1 is always alive: it stands in for another Kickstand process
    await writeFile(path.join(dataDir, '.kickstand.pid'), '1\n');
    try {
      const config = loadConfig(singleMachineConfigSchema, { ...anyFreePorts, DATA_DIR: dataDir });
      await expect(startSingleMachine(config, createSilentLogger())).rejects.toThrow(
        `Kickstand is already running with DATA_DIR=${dataDir} (pid 1). Stop it first, or use another DATA_DIR.`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('when the pid file is stale, then start goes ahead and removes the file on stop', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-data-'));
    await writeFile(path.join(dataDir, '.kickstand.pid'), '999999999\n');
    try {
      const kickstand = await startSingleMachine(
        loadConfig(singleMachineConfigSchema, { ...anyFreePorts, DATA_DIR: dataDir }),
        createSilentLogger(),
      );
      expect(existsSync(path.join(dataDir, '.kickstand.pid'))).toBe(true);
      await kickstand.stop();
      expect(existsSync(path.join(dataDir, '.kickstand.pid'))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('Kick credentials', () => {
  test('when KICK_CLIENT_ID is set without KICK_CLIENT_SECRET, then start fails naming the variable', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kickstand-data-'));
    try {
      const config = loadConfig(singleMachineConfigSchema, {
        ...anyFreePorts,
        DATA_DIR: dataDir,
        KICK_CLIENT_ID: 'real-client',
      });
      await expect(startSingleMachine(config, createSilentLogger())).rejects.toThrow(/KICK_CLIENT_SECRET/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
