import { defaultCommandSettings } from '@kickstand/api-contract';
import { maxImportTextLength, type ImportPreview } from '@kickstand/api-contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { CommandsTab } from '../components/commands-tab';

const exportText = '[{"command":"discord","reply":"Join ${sender}"}]';

const preview: ImportPreview = {
  existingCount: 1,
  maxCommands: 500,
  rows: [
    {
      name: 'discord',
      originalName: 'discord',
      response: 'Join {user}',
      translatedVariables: [{ from: '${sender}', to: '{user}' }],
      untranslatable: [],
      settings: { globalCooldownSeconds: 5, userCooldownSeconds: 15, permission: 'everyone', aliases: ['dc'] },
    },
    {
      name: 'rps',
      originalName: 'rps',
      response: "{user} picks ${random.pick 'rock' 'paper'}",
      translatedVariables: [{ from: '${sender}', to: '{user}' }],
      untranslatable: ["${random.pick 'rock' 'paper'}"],
      settings: { enabled: false, permission: 'moderator' },
    },
    {
      name: 'test',
      originalName: '!test',
      response: 'x',
      translatedVariables: [],
      untranslatable: [],
      settings: {},
      problem: 'Command "test" already exists. Skipped (remove it first to replace it).',
    },
  ],
};

function serve(applyAnswer = ok({ imported: ['discord', 'rps'], skipped: [], aliasesLeftOut: [] })) {
  const list = [{ command: 'test', response: 'Hello!', ...defaultCommandSettings }];
  const server = installFakeFetch({
    'GET /api/commands': () => ok([...list]),
    'GET /api/commands/variables': ok([]),
    'POST /api/commands/import/preview': ok(preview),
    'POST /api/commands/import': () => {
      if (applyAnswer.status === 200 || applyAnswer.status === undefined)
        list.push(
          { command: 'discord', response: 'Join {user}', ...defaultCommandSettings },
          { command: 'rps', response: 'x', ...defaultCommandSettings },
        );
      return applyAnswer;
    },
  });
  return { server, list };
}

async function openAndPreview(user: ReturnType<typeof userEvent.setup>) {
  renderWithProviders(<CommandsTab />);
  await screen.findByText('$test');
  await user.click(screen.getByRole('button', { name: 'Import' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import commands' });
  await user.selectOptions(within(dialog).getByLabelText('Bot'), 'streamelements');
  fireEvent.change(within(dialog).getByLabelText('Export'), { target: { value: exportText } });
  await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
  await within(dialog).findByRole('table');
  return dialog;
}

describe('Import dialog', () => {
  test('when an export is previewed, then each row shows its translation, untranslatable variables marked and problems unselectable', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    const dialog = await openAndPreview(user);

    expect(server.callsTo('POST /api/commands/import/preview')[0]?.body).toEqual({
      source: 'streamelements',
      text: exportText,
    });
    expect(
      within(dialog).getByText('3 found · 2 can be imported · 2 selected · you have 1 of 500 commands'),
    ).toBeInTheDocument();
    const rows = within(dialog).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Join {user}')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('${sender} → {user}');
    expect(rows[0]).toHaveTextContent('cooldown 5 s · per viewer 15 s · everyone · aliases: dc');
    expect(rows[1]).toHaveTextContent("${random.pick 'rock' 'paper'} not translated, kept as text");
    expect(rows[1]).toHaveTextContent('moderator · disabled');
    expect(within(rows[2]!).getByRole('checkbox', { name: 'Import $test' })).toBeDisabled();
    expect(rows[2]).toHaveTextContent('Command "test" already exists. Skipped (remove it first to replace it).');
    expect(rows[2]).toHaveTextContent('was !test');
  });

  test('when rows are selected and imported, then the chosen names are sent, the steps show and the summary follows', async () => {
    const user = userEvent.setup();
    const { server } = serve(ok({ imported: ['discord'], skipped: [], aliasesLeftOut: [] }));
    const dialog = await openAndPreview(user);

    await user.click(within(dialog).getByRole('checkbox', { name: 'Import $rps' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import 1 command' }));

    expect(await within(dialog).findByText('1 command imported.')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('value', '2');
    expect(server.callsTo('POST /api/commands/import')[0]?.body).toEqual({
      source: 'streamelements',
      text: exportText,
      names: ['discord'],
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('$discord')).toBeInTheDocument();
  });

  test('when some selected rows are skipped, then the summary lists them with their reasons', async () => {
    const user = userEvent.setup();
    serve(
      ok({
        imported: ['discord'],
        skipped: [{ name: 'rps', reason: 'Command "rps" already exists.' }],
        aliasesLeftOut: [],
      }),
    );
    const dialog = await openAndPreview(user);
    await user.click(within(dialog).getByRole('button', { name: 'Import 2 commands' }));
    expect(await within(dialog).findByText('1 command imported.')).toBeInTheDocument();
    expect(within(dialog).getByRole('listitem')).toHaveTextContent('rps: Command "rps" already exists.');
  });

  test('when the import is refused, then the server’s reason shows and the preview stays', async () => {
    const user = userEvent.setup();
    const refusal =
      'You have 499 commands; importing 2 more would exceed the limit of 500. Select fewer commands or remove some first.';
    serve(fail(409, refusal));
    const dialog = await openAndPreview(user);
    await user.click(within(dialog).getByRole('button', { name: 'Import 2 commands' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(within(dialog).getByRole('table')).toBeInTheDocument();
  });

  test('when the services’ body limit refuses the export, then the dialog says to split it', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    server.routes['POST /api/commands/import/preview'] = fail(413, 'Request body is too large');
    renderWithProviders(<CommandsTab />);
    await screen.findByText('$test');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import commands' });
    fireEvent.change(within(dialog).getByLabelText('Export'), { target: { value: exportText } });
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The export is too large to send. Split it and import it in parts.',
    );
  });

  test('when the text is over the limit, then the reason shows and Preview is off', async () => {
    const user = userEvent.setup();
    serve();
    renderWithProviders(<CommandsTab />);
    await screen.findByText('$test');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import commands' });
    fireEvent.change(within(dialog).getByLabelText('Export'), {
      target: { value: 'a'.repeat(maxImportTextLength + 1) },
    });
    expect(
      within(dialog).getByText('The export is too long: at most 90,000 characters. Split it and import it in parts.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Preview' })).toBeDisabled();
  });

  test('when a file is chosen, then its text is what is previewed', async () => {
    const user = userEvent.setup();
    const { server } = serve();
    renderWithProviders(<CommandsTab />);
    await screen.findByText('$test');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import commands' });
    const file = new File(['Name,Message\n!hi,hello'], 'commands.csv', { type: 'text/csv' });
    await user.upload(within(dialog).getByLabelText('Or choose a file'), file);
    await waitFor(() => expect(within(dialog).getByLabelText('Export')).toHaveValue('Name,Message\n!hi,hello'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await within(dialog).findByRole('table');
    expect(server.callsTo('POST /api/commands/import/preview')[0]?.body).toEqual({
      source: 'nightbot',
      text: 'Name,Message\n!hi,hello',
    });
  });
});
