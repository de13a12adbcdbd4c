import { actingChannel, actingChannelHeaders } from './acting-channel';

describe('the acting-for channel of the API client (team access)', () => {
  afterEach(() => actingChannel.set(null));

  test('when no channel is chosen, then no call names one', () => {
    expect(actingChannelHeaders('/commands')).toEqual({});
  });

  test('when an editor chose a channel, then only the editor routes name it', () => {
    actingChannel.set({ ownerUserId: 'u-owner', ownerUsername: 'owner' });
    expect(actingChannelHeaders('/commands')).toEqual({ 'x-kickstand-channel': 'u-owner' });
    expect(actingChannelHeaders('/commands/hello?x=1')).toEqual({ 'x-kickstand-channel': 'u-owner' });
    expect(actingChannelHeaders('/timers')).toEqual({ 'x-kickstand-channel': 'u-owner' });
    expect(actingChannelHeaders('/counters/deaths')).toEqual({ 'x-kickstand-channel': 'u-owner' });
    expect(actingChannelHeaders('/platform/kick/unlink')).toEqual({});
    expect(actingChannelHeaders('/platform/profile')).toEqual({});
    expect(actingChannelHeaders('/team/editors')).toEqual({});
    expect(actingChannelHeaders('/commandsx')).toEqual({});
  });

  test('when the stored value is not a channel, then it is ignored', () => {
    window.sessionStorage.setItem('kickstand.actingChannel', '{"ownerUserId":42}');
    expect(actingChannel.get()).toBeNull();
  });
});
