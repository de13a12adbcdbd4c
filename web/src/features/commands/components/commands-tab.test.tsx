import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSocket } from '../../../lib/socket';
import { FakeSocket } from '../../../testing/fake-socket';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { CommandsTab } from './commands-tab';

const testCommand = { command: 'test', response: 'Hello! This is a test command. The bot is working correctly!' };

function serve(commands = [testCommand]) {
  const list = [...commands];
  const server = installFakeFetch({
    'GET /api/commands': () => ok([...list]),
    'GET /api/commands/variables': ok([{ name: '{user}', description: 'The username of the viewer.' }]),
    'POST /api/commands': (request) => {
      list.push(request.body as typeof testCommand);
      return ok(request.body, {}, 201);
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

    fireEvent.change(response, { target: { value: 'x'.repeat(501) } });
    expect(screen.getByText('Response must be 500 characters or less')).toBeInTheDocument();
    fireEvent.change(response, { target: { value: '' } });
    expect(screen.getByText('Response text is required.')).toBeInTheDocument();
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

    list.push({ command: 'fromphone', response: 'added elsewhere' });
    act(() => socket.serverEmit('command-added', { command: 'fromphone', response: 'added elsewhere' }));
    expect(await screen.findByText('$fromphone')).toBeInTheDocument();

    list.splice(0, 1);
    act(() => socket.serverEmit('command-removed', { command: 'test' }));
    await waitFor(() => expect(screen.queryByText('$test')).not.toBeInTheDocument());
    expect(server.callsTo('GET /api/commands').length).toBe(loads + 2);
  });
});
