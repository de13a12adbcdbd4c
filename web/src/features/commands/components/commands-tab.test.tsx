import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSocket } from '../../../lib/socket';
import { FakeSocket } from '../../../testing/fake-socket';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { defaultCommandSettings, type Command } from '@kickstand/api-contract';
import { CommandsTab } from './commands-tab';

/** A command as the server lists it: the default settings unless told. */
const aCommand = (command: string, response: string, settings: Partial<Command> = {}): Command => ({
  command,
  response,
  ...defaultCommandSettings,
  ...settings,
});
const testCommand = aCommand('test', 'Hello! This is a test command. The bot is working correctly!');

function serve(commands = [testCommand]) {
  const list = [...commands];
  const server = installFakeFetch({
    'GET /api/commands': () => ok([...list]),
    'GET /api/commands/variables': ok([{ name: '{user}', description: 'The username of the viewer.' }]),
    'POST /api/commands': (request) => {
      const body = request.body as { command: string; response: string };
      list.push(aCommand(body.command, body.response));
      return ok(list.at(-1), {}, 201);
    },
    'PATCH /api/commands/test': (request) => {
      const index = list.findIndex((c) => c.command === 'test');
      const current = list[index]!;
      list[index] = { ...current, ...(request.body as Partial<Command>) };
      return ok(list[index]);
    },
    'DELETE /api/commands': (request) => {
      const { command } = request.body as { command: string };
      list.splice(
        list.findIndex((c) => c.command === command),
        1,
      );
      return ok({ command });
    },
  });
  return { server, list };
}

async function openForm(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByText('$test');
  await user.click(screen.getByRole('button', { name: 'Add Command' }));
  return {
    name: screen.getByLabelText('Command name'),
    response: screen.getByLabelText('Response'),
    submit: screen.getByRole('button', { name: 'Save Command' }),
  };
}

describe('Commands tab', () => {
  test('when commands load, then Current Commands shows the count and each command with Remove', async () => {
    serve();
    renderWithProviders(<CommandsTab />);
    const heading = await screen.findByRole('heading', { name: /Current Commands/ });
    expect(heading).toHaveTextContent('Current Commands 1');
    expect(screen.getByText('$test')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove $test' })).toHaveTextContent('Remove');
  });

  test('when there are no commands, then No Commands Yet shows', async () => {
    serve([]);
    renderWithProviders(<CommandsTab />);
    expect(await screen.findByText('No Commands Yet')).toBeInTheDocument();
    expect(screen.getByText('Add your first command to get started!')).toBeInTheDocument();
  });

  test('when the variables load, then they are documented beside the list', async () => {
    serve();
    renderWithProviders(<CommandsTab />);
    expect(await screen.findByText('{user}')).toBeInTheDocument();
    expect(screen.getByText('The username of the viewer.')).toBeInTheDocument();
  });

  test('when typing a name, then the live messages follow the spec order', async () => {
    const user = userEvent.setup();
    serve();
    renderWithProviders(<CommandsTab />);
    const { name } = await openForm(user);

    await user.type(name, 'a');
    expect(screen.queryByText(/Command/, { selector: '.field-error' })).not.toBeInTheDocument();
    await user.clear(name);
    expect(screen.getByText('Command name is required.')).toBeInTheDocument();
    await user.type(name, 'two words');
    expect(screen.getByText('Command must be a single word (no spaces allowed).')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'bad!');
    expect(
      screen.getByText('Command can only contain letters, numbers, hyphens, and underscores.'),
    ).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'TeSt');
    expect(screen.getByText('Command "TeSt" already exists.')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  test('when typing a response, then the counter shows length/500 and turns amber above 450', async () => {
    const user = userEvent.setup();
    serve();
    renderWithProviders(<CommandsTab />);
    const { response } = await openForm(user);
    const counter = screen.getByTestId('response-counter');
    expect(counter).toHaveTextContent('0/500');

    fireEvent.change(response, { target: { value: 'x'.repeat(450) } });
    expect(counter).toHaveTextContent('450/500');
    expect(counter).not.toHaveClass('char-counter-warning');
    fireEvent.change(response, { target: { value: 'x'.repeat(451) } });
    expect(counter).toHaveClass('char-counter-warning');

    // react-hook-form's resolver checks asynchronously: the message shows a tick after the change
    fireEvent.change(response, { target: { value: 'x'.repeat(501) } });
    expect(await screen.findByText('Response must be 500 characters or less')).toBeInTheDocument();
    fireEvent.change(response, { target: { value: '' } });
    expect(await screen.findByText('Response text is required.')).toBeInTheDocument();
  });

  test('when submitting a too-long response, then the submit message shows and nothing is sent', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<CommandsTab />);
    const { name, response, submit } = await openForm(user);
    await user.type(name, 'long');
    fireEvent.change(response, { target: { value: 'x'.repeat(501) } });
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Response text must be 500 characters or less');
    expect(server.callsTo('POST /api/commands')).toHaveLength(0);
  });

  test('when submitting an empty form, then the name message shows first', async () => {
    const user = userEvent.setup();
    serve();
    renderWithProviders(<CommandsTab />);
    const { submit } = await openForm(user);
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Command name is required.');
  });

  test('when a command is added, then the success toast shows, the form closes and the list reloads', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<CommandsTab />);
    const { name, response, submit } = await openForm(user);
    await user.type(name, 'hello');
    await user.type(response, 'Hi there!');
    await user.click(submit);

    expect(await screen.findByText('Command "hello" added successfully!')).toBeInTheDocument();
    expect(server.callsTo('POST /api/commands')[0]?.body).toEqual({ command: 'hello', response: 'Hi there!' });
    expect(screen.queryByRole('form', { name: 'Add Command' })).not.toBeInTheDocument();
    expect(await screen.findByText('$hello')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Current Commands/ })).toHaveTextContent('2');

    await user.click(screen.getByRole('button', { name: 'Add Command' }));
    expect(screen.getByLabelText('Command name')).toHaveValue('');
  });

  test('when adding fails, then the spec toast shows and the server error stays in the form', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    server.routes['POST /api/commands'] = fail(409, 'You can have at most 500 commands.');
    renderWithProviders(<CommandsTab />);
    const { name, response, submit } = await openForm(user);
    await user.type(name, 'hello');
    await user.type(response, 'Hi');
    await user.click(submit);
    expect(await screen.findByText('Failed to add command. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('You can have at most 500 commands.')).toBeInTheDocument();
  });

  test('when Remove is confirmed, then the confirmation text is the spec one and the success toast shows', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<CommandsTab />);
    await user.click(await screen.findByRole('button', { name: 'Remove $test' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to remove the command $test?');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Command "test" removed successfully!')).toBeInTheDocument();
    expect(server.callsTo('DELETE /api/commands')[0]?.body).toEqual({ command: 'test' });
    expect(await screen.findByText('No Commands Yet')).toBeInTheDocument();
  });

  test('when Remove is cancelled, then nothing is sent', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<CommandsTab />);
    await user.click(await screen.findByRole('button', { name: 'Remove $test' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(server.callsTo('DELETE /api/commands')).toHaveLength(0);
  });

  test('when removing fails, then Failed to remove command. Please try again.', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    server.routes['DELETE /api/commands'] = fail(500, 'boom');
    renderWithProviders(<CommandsTab />);
    await user.click(await screen.findByRole('button', { name: 'Remove $test' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Failed to remove command. Please try again.')).toBeInTheDocument();
  });

  test('when the socket reports command-added or command-removed, then the list reloads', async () => {
    const socket = new FakeSocket();
    setSocket(socket.asSocket());
    const { server, list } = serve();
    renderWithProviders(<CommandsTab />);
    await screen.findByText('$test');
    const loads = server.callsTo('GET /api/commands').length;

    list.push(aCommand('fromphone', 'added elsewhere'));
    act(() => socket.serverEmit('command-added', { command: 'fromphone', response: 'added elsewhere' }));
    expect(await screen.findByText('$fromphone')).toBeInTheDocument();

    list.splice(0, 1);
    act(() => socket.serverEmit('command-removed', { command: 'test' }));
    await waitFor(() => expect(screen.queryByText('$test')).not.toBeInTheDocument());
    expect(server.callsTo('GET /api/commands').length).toBe(loads + 2);
  });

  describe('settings (issue 19)', () => {
    test('when commands have settings, then the list shows the aliases, who may run them, the cooldowns and Disabled', async () => {
      serve([
        aCommand('discord', 'join', { aliases: ['dc', 'server'], permission: 'vips', userCooldownSeconds: 90 }),
        aCommand('quiet', 'shh', { enabled: false, globalCooldownSeconds: 0, modsExempt: false }),
      ]);
      renderWithProviders(<CommandsTab />);

      const discord = await screen.findByTestId('command-discord');
      expect(discord).toHaveTextContent('$discord also $dc$server');
      expect(
        within(discord).getByText('VIPs · cooldown 1 s · per viewer 1 min 30 s · mods exempt'),
      ).toBeInTheDocument();
      expect(within(discord).getByRole('switch', { name: 'Enabled $discord' })).toBeChecked();
      const quiet = screen.getByTestId('command-quiet');
      expect(within(quiet).getByText('Disabled')).toBeInTheDocument();
      expect(within(quiet).getByText('Everyone · no cooldown')).toBeInTheDocument();
      expect(within(quiet).getByRole('switch', { name: 'Enabled $quiet' })).not.toBeChecked();
    });

    test('when the Enabled switch is turned off, then PATCH sends enabled false, a toast says so and the list shows Disabled', async () => {
      const user = userEvent.setup();
      const { server } = serve();
      renderWithProviders(<CommandsTab />);

      await user.click(await screen.findByRole('switch', { name: 'Enabled $test' }));

      expect(
        await screen.findByText('Command "test" disabled: it stays listed and does not answer.'),
      ).toBeInTheDocument();
      expect(server.callsTo('PATCH /api/commands/test').map((request) => request.body)).toEqual([{ enabled: false }]);
      expect(await within(screen.getByTestId('command-test')).findByText('Disabled')).toBeInTheDocument();
      expect(screen.getByRole('switch', { name: 'Enabled $test' })).not.toBeChecked();
    });

    test('when the switch fails, then Failed to update command shows and the switch stays on', async () => {
      const user = userEvent.setup();
      const { server } = serve();
      server.routes['PATCH /api/commands/test'] = fail(500, 'boom');
      renderWithProviders(<CommandsTab />);

      await user.click(await screen.findByRole('switch', { name: 'Enabled $test' }));

      expect(await screen.findByText('Failed to update command. Please try again.')).toBeInTheDocument();
      expect(screen.getByRole('switch', { name: 'Enabled $test' })).toBeChecked();
    });

    test('when a command is edited, then PATCH sends every field, the toast shows, the dialog closes and the list shows the change', async () => {
      const user = userEvent.setup();
      const { server } = serve();
      renderWithProviders(<CommandsTab />);
      await user.click(await screen.findByRole('button', { name: 'Edit $test' }));
      const dialog = screen.getByRole('dialog', { name: 'Edit $test' });

      const name = within(dialog).getByLabelText('Command name');
      expect(name).toHaveValue('test');
      await user.clear(name);
      await user.type(name, 'hello');
      const response = within(dialog).getByLabelText('Response');
      await user.clear(response);
      await user.type(response, 'Hi there');
      await user.type(within(dialog).getByLabelText('Aliases'), 'hi, $hey');
      await user.selectOptions(within(dialog).getByLabelText('Who can use it'), 'Subscribers');
      const global = within(dialog).getByLabelText('Cooldown (seconds)');
      await user.clear(global);
      await user.type(global, '5');
      await user.type(within(dialog).getByLabelText('Per-viewer cooldown (seconds)'), '0');
      await user.click(within(dialog).getByLabelText('Moderators and the broadcaster skip the cooldowns'));
      await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

      expect(await screen.findByText('Command "hello" updated successfully!')).toBeInTheDocument();
      expect(server.callsTo('PATCH /api/commands/test').map((request) => request.body)).toEqual([
        {
          command: 'hello',
          response: 'Hi there',
          aliases: ['hi', 'hey'],
          permission: 'subscribers',
          globalCooldownSeconds: 5,
          userCooldownSeconds: 0,
          modsExempt: false,
        },
      ]);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      const edited = await screen.findByTestId('command-hello');
      expect(edited).toHaveTextContent('$hello also $hi$hey');
      expect(within(edited).getByText('Subscribers · cooldown 5 s')).toBeInTheDocument();
    });

    test('when the edit breaks a rule, then the message shows under the field and nothing is sent', async () => {
      const user = userEvent.setup();
      const { server } = serve([testCommand, aCommand('other', 'o')]);
      renderWithProviders(<CommandsTab />);
      await user.click(await screen.findByRole('button', { name: 'Edit $test' }));
      const dialog = screen.getByRole('dialog', { name: 'Edit $test' });

      const name = within(dialog).getByLabelText('Command name');
      await user.clear(name);
      await user.type(name, 'Other');
      expect(within(dialog).getByText('Command "Other" already exists.')).toBeInTheDocument();
      await user.clear(name);
      await user.type(name, 'test');
      await user.type(within(dialog).getByLabelText('Aliases'), 'bad!');
      expect(
        within(dialog).getByText(
          'Alias "bad!" must be one word of letters, numbers, hyphens and underscores, at most 50 characters.',
        ),
      ).toBeInTheDocument();
      const global = within(dialog).getByLabelText('Cooldown (seconds)');
      await user.clear(global);
      await user.type(global, '1.5');
      expect(within(dialog).getByText('Cooldowns are whole seconds from 0 to 86400.')).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

      expect(within(dialog).getByRole('alert')).toHaveTextContent('Alias "bad!" must be one word');
      expect(server.callsTo('PATCH /api/commands/test')).toHaveLength(0);
    });

    test('when the server refuses the edit, then its message shows in the dialog, which stays open', async () => {
      const user = userEvent.setup();
      const { server } = serve();
      server.routes['PATCH /api/commands/test'] = fail(409, '"$dc" is already an alias of $discord.');
      renderWithProviders(<CommandsTab />);
      await user.click(await screen.findByRole('button', { name: 'Edit $test' }));
      const dialog = screen.getByRole('dialog', { name: 'Edit $test' });

      await user.type(within(dialog).getByLabelText('Aliases'), 'dc');
      await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

      expect(await within(dialog).findByRole('alert')).toHaveTextContent('"$dc" is already an alias of $discord.');
      expect(screen.getByRole('dialog', { name: 'Edit $test' })).toBeInTheDocument();
    });

    test('when the edit is cancelled, then nothing is sent', async () => {
      const user = userEvent.setup();
      const { server } = serve();
      renderWithProviders(<CommandsTab />);
      await user.click(await screen.findByRole('button', { name: 'Edit $test' }));
      await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));

      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(server.callsTo('PATCH /api/commands/test')).toHaveLength(0);
    });
  });
});
