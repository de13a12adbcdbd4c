import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { actingChannelHeader, teamMessages } from '@kickstand/api-contract';
import { loadConfig } from '@kickstand/platform/config';
import { createSilentLogger } from '@kickstand/platform/log';
import { eventually } from '@kickstand/platform/testing';
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

interface Answer {
  status: number;
  body: { success: boolean; data?: unknown; message?: string; error?: string };
}

describe('team access through the gateway (issue 20: an editor changes a command and cannot unlink)', () => {
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
    await kickstand.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(webDir, { recursive: true, force: true });
  });

  async function call(
    method: string,
    apiPath: string,
    options: { token?: string; channel?: string; body?: unknown } = {},
  ): Promise<Answer> {
    const response = await fetch(`${kickstand.url}${apiPath}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.channel ? { [actingChannelHeader]: options.channel } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  async function register(name: string): Promise<{ token: string; id: string; email: string }> {
    const email = `${name}@example.com`;
    const answer = await call('POST', '/api/platform/register', {
      body: { email, username: name, password: 'Vq7!rotating-Kettle-91' },
    });
    const data = answer.body.data as { token: string; user: { id: string } };
    return { token: data.token, id: data.user.id, email };
  }

  test('when the owner invited an editor, then the editor edits the owner’s command, cannot unlink, and loses access on removal', async () => {
    const owner = await register('teamowner');
    const editor = await register('teameditor');
    expect(
      (await call('POST', '/api/commands', { token: owner.token, body: { command: 'hello', response: 'hi' } })).status,
    ).toBe(201);
    expect(
      (await call('POST', '/api/team/editors', { token: owner.token, body: { email: editor.email } })).status,
    ).toBe(201);

    const asEditor = { token: editor.token, channel: owner.id };
    await eventually(async () =>
      expect(
        (await call('PATCH', '/api/commands/hello', { ...asEditor, body: { response: 'hi from the team' } })).status,
      ).toBe(200),
    );
    const ownerCommands = await call('GET', '/api/commands', { token: owner.token });
    expect(ownerCommands.body.data).toContainEqual(
      expect.objectContaining({ command: 'hello', response: 'hi from the team' }),
    );
    // without the header the editor works on their own channel (only its starter command)
    const editorCommands = (await call('GET', '/api/commands', { token: editor.token })).body.data as {
      command: string;
    }[];
    expect(editorCommands.map(({ command }) => command)).toEqual(['test']);

    expect(await call('DELETE', '/api/platform/kick/unlink', asEditor)).toEqual({
      status: 403,
      body: { success: false, error: teamMessages.editorNotAllowed },
    });
    expect((await call('DELETE', `/api/team/editors/${editor.id}`, asEditor)).status).toBe(403);

    expect((await call('DELETE', `/api/team/editors/${editor.id}`, { token: owner.token })).status).toBe(200);
    await eventually(async () =>
      expect(await call('GET', '/api/commands', asEditor)).toEqual({
        status: 403,
        body: { success: false, error: teamMessages.notAnEditor },
      }),
    );
  });
});
