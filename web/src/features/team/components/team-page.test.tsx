import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { teamMessages, type EditableChannel, type TeamEditor } from '@kickstand/api-contract';
import { actingChannel } from '../../../lib/acting-channel';
import { fail, installFakeFetch, ok } from '../../../testing/fake-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { ChannelSwitcher } from './channel-switcher';
import { TeamEditors } from './team-editors';

const helper: TeamEditor = {
  userId: 'u-helper',
  username: 'helper',
  email: 'helper@example.com',
  addedAt: '2026-03-02T18:00:00.000Z',
};
const streamerChannel: EditableChannel = {
  ownerUserId: 'u-streamer',
  ownerUsername: 'streamer',
  addedAt: '2026-03-02T18:00:00.000Z',
};

describe('Team page', () => {
  afterEach(() => actingChannel.set(null));

  test('when the owner invites an e-mail with no account, then the clear 404 message shows', async () => {
    const fake = installFakeFetch({
      'GET /api/team/editors': () => ok([]),
      'POST /api/team/editors': () => fail(404, teamMessages.unknownEmail),
    });
    renderWithProviders(<TeamEditors />);
    expect(await screen.findByText('No editors yet.')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Editor’s e-mail'), 'nobody@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Invite Editor' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(teamMessages.unknownEmail);
    expect(fake.callsTo('POST /api/team/editors').map((request) => request.body)).toEqual([
      { email: 'nobody@example.com' },
    ]);
  });

  test('when the owner removes an editor, then DELETE names the editor and the list reloads', async () => {
    let editors = [helper];
    const fake = installFakeFetch({
      'GET /api/team/editors': () => ok([...editors]),
      'DELETE /api/team/editors/u-helper': () => {
        editors = [];
        return ok(helper, { message: teamMessages.removed('helper') });
      },
    });
    renderWithProviders(<TeamEditors />);

    await userEvent.click(await screen.findByRole('button', { name: 'Remove helper' }));

    expect(await screen.findByText('No editors yet.')).toBeInTheDocument();
    expect(fake.callsTo('DELETE /api/team/editors/u-helper')).toHaveLength(1);
  });

  test('when an editor picks a channel, then it becomes the acting-for channel of the API client', async () => {
    installFakeFetch({ 'GET /api/team/channels': () => ok([streamerChannel]) });
    renderWithProviders(<ChannelSwitcher />);

    const select = await screen.findByLabelText('Dashboard commands, timers and counters of');
    await screen.findByRole('option', { name: 'streamer' });
    await userEvent.selectOptions(select, 'u-streamer');

    await waitFor(() => expect(actingChannel.get()).toEqual({ ownerUserId: 'u-streamer', ownerUsername: 'streamer' }));
    // the API state was reset (what was loaded belonged to the other channel): the list loads again
    await screen.findByRole('option', { name: 'streamer' });
    await userEvent.selectOptions(screen.getByLabelText('Dashboard commands, timers and counters of'), '');
    expect(actingChannel.get()).toBeNull();
  });
});
