import { defaultModerationFilters, moderationMessages, type ModerationLogEntry } from '@kickstand/api-contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browser } from '../../../lib/browser';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { ModerationFiltersSection } from './moderation-filters';
import { ModerationLogSection } from './moderation-log';

const allScopes = { filters: defaultModerationFilters, missingScopes: [] };

const entry = (overrides: Partial<ModerationLogEntry>): ModerationLogEntry => ({
  id: 'moderation:m1',
  at: '2026-03-02T18:00:00.000Z',
  filter: 'links',
  action: 'delete',
  timeoutMinutes: null,
  senderUsername: 'viewer_one',
  senderUserId: '777',
  content: 'visit spam.example.net',
  status: 'done',
  error: '',
  ...overrides,
});

describe('Moderation filters', () => {
  test('when the link filter is switched on with an allow list and saved, then the whole filters are sent', async () => {
    const server = installFakeFetch({
      'GET /api/moderation/filters': ok(allScopes),
      'PUT /api/moderation/filters': (request) =>
        ok({ filters: request.body, missingScopes: [] }, { message: moderationMessages.saved }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ModerationFiltersSection />);

    const links = await screen.findByRole('group', { name: 'Links' });
    await user.click(within(links).getByRole('checkbox', { name: 'On' }));
    await user.type(within(links).getByLabelText('Allowed domains'), 'kick.com\n youtube.com ');
    await user.click(screen.getByRole('button', { name: 'Save Filters' }));

    expect(await screen.findByText(moderationMessages.saved)).toBeInTheDocument();
    expect(server.callsTo('PUT /api/moderation/filters').map((request) => request.body)).toEqual([
      {
        ...defaultModerationFilters,
        links: { ...defaultModerationFilters.links, enabled: true, allowedDomains: ['kick.com', 'youtube.com'] },
      },
    ]);
  });

  test('when saving is refused for a missing scope, then the grant button starts the Kick link with moderation', async () => {
    const goTo = jest.spyOn(browser, 'goTo').mockImplementation(() => undefined);
    const server = installFakeFetch({
      'GET /api/moderation/filters': ok(allScopes),
      'PUT /api/moderation/filters': fail(409, moderationMessages.missingScope),
      'POST /api/platform/kick/link': ok({ authUrl: 'http://kick.test/oauth/authorize?x=1' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ModerationFiltersSection />);

    const caps = await screen.findByRole('group', { name: 'Excessive caps' });
    await user.click(within(caps).getByRole('checkbox', { name: 'On' }));
    await user.click(screen.getByRole('button', { name: 'Save Filters' }));
    await user.click(await screen.findByRole('button', { name: 'Grant moderation access' }));

    expect(screen.getByText(moderationMessages.missingScope)).toBeInTheDocument();
    expect(server.callsTo('POST /api/platform/kick/link').map((request) => request.query)).toEqual([
      { moderation: 'true' },
    ]);
    expect(goTo).toHaveBeenCalledWith('http://kick.test/oauth/authorize?x=1');
    goTo.mockRestore();
  });

  test('when the link lacks the scopes, then the grant button shows from the start', async () => {
    installFakeFetch({
      'GET /api/moderation/filters': ok({ ...allScopes, missingScopes: ['moderation:ban'] }),
    });
    renderWithProviders(<ModerationFiltersSection />);

    expect(await screen.findByRole('button', { name: 'Grant moderation access' })).toBeInTheDocument();
  });
});

describe('Moderation log', () => {
  test('when a timeout is listed, then Undo sends the unban; a deletion has no Undo', async () => {
    const timeout = entry({ id: 'moderation:m2', action: 'timeout', timeoutMinutes: 10, content: 'SHOUT' });
    const server = installFakeFetch({
      'GET /api/moderation/log': ok([timeout, entry({})]),
      'POST /api/moderation/log/moderation%3Am2/undo': ok(timeout, { message: moderationMessages.undone }),
    });
    const user = userEvent.setup();
    renderWithProviders(<ModerationLogSection />);

    const timedOut = (await screen.findByText('SHOUT')).closest('tr') as HTMLElement;
    expect(timedOut).toHaveTextContent('Timed out 10 min (done)');
    const deleted = screen.getByText('visit spam.example.net').closest('tr') as HTMLElement;
    expect(within(deleted).queryByRole('button', { name: 'Undo' })).toBeNull();
    await user.click(within(timedOut).getByRole('button', { name: 'Undo' }));

    expect(server.requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([
      '/api/moderation/log/moderation%3Am2/undo',
    ]);
  });
});
