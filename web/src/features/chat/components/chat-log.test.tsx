import { render, screen, within } from '@testing-library/react';
import { aChatMessage } from '../../../testing/fixtures';
import { ChatLog } from './chat-log';

/** jsdom has no layout: give the log a size and a scroll position. */
function layOut(element: HTMLElement, box: { scrollTop: number; scrollHeight: number; clientHeight: number }) {
  Object.defineProperty(element, 'scrollHeight', { configurable: true, value: box.scrollHeight });
  Object.defineProperty(element, 'clientHeight', { configurable: true, value: box.clientHeight });
  element.scrollTop = box.scrollTop;
}

describe('chat log view', () => {
  test('when there are no messages, then the empty state shows', () => {
    render(<ChatLog messages={[]} />);
    expect(screen.getByText('No messages yet. Start the bot and begin chatting!')).toBeInTheDocument();
  });

  test('when the bot replies, then it shows as @Kickstand with a Replying to line', () => {
    render(
      <ChatLog
        messages={[
          aChatMessage({ username: 'Kickstand', isBot: true, content: 'Hello!', replyTo: 'viewer_alice' }),
          aChatMessage({ username: 'Kickstand', isBot: true, content: 'Hi again', replyTo: null }),
        ]}
      />,
    );
    const [first, second] = screen.getAllByTestId('chat-line');
    expect(first).toHaveTextContent('Replying to @viewer_alice');
    expect(first).toHaveTextContent('@Kickstand');
    expect(second).toHaveTextContent('Replying to @user');
  });

  test('when a line holds an emote and a link, then the emote is an image named by its alt text and the link opens with noopener nofollow', () => {
    render(<ChatLog messages={[aChatMessage({ content: 'gg [emote:37226:KEKW] clip https://kick.com/clip/1' })]} />);
    const line = screen.getByTestId('chat-line');
    const emote = within(line).getByRole('img', { name: 'KEKW' });
    expect(emote).toHaveAttribute('src', 'https://files.kick.com/emotes/37226/fullsize');
    const link = within(line).getByRole('link', { name: 'https://kick.com/clip/1' });
    expect(link).toHaveAttribute('href', 'https://kick.com/clip/1');
    expect(link).toHaveAttribute('rel', 'noopener nofollow');
    expect(line).not.toHaveTextContent('[emote:');
  });

  test('when a viewer types a command, then it is monospace, with the badge and a colour from the name', () => {
    render(<ChatLog messages={[aChatMessage({ content: '$test', badges: [{ type: 'moderator' }] })]} />);
    const line = screen.getByTestId('chat-line');
    expect(within(line).getByText('$test')).toHaveClass('chat-text-command');
    expect(within(line).getByRole('img', { name: 'moderator' })).toBeInTheDocument();
    expect(within(line).getByText('viewer_alice').style.color).toMatch(/^rgb\(/);
  });

  test('when a message contains HTML, then it is shown as text', () => {
    render(<ChatLog messages={[aChatMessage({ content: '<img src=x onerror=alert(1)><b>bold</b>' })]} />);
    expect(screen.getByText('<img src=x onerror=alert(1)><b>bold</b>')).toBeInTheDocument();
    expect(document.querySelector('.chat-log img, .chat-log b')).toBeNull();
  });

  test('when a line arrives while the reader is near the bottom, then the log scrolls to the newest', () => {
    const first = [aChatMessage({ id: 'a' })];
    const { rerender } = render(<ChatLog messages={first} />);
    const log = screen.getByTestId('chat-log');
    layOut(log, { scrollTop: 520, scrollHeight: 1000, clientHeight: 400 }); // 80 px from the bottom
    log.dispatchEvent(new Event('scroll'));
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 1040 });
    rerender(<ChatLog messages={[...first, aChatMessage({ id: 'b' })]} />);
    expect(log.scrollTop).toBe(1040);
    expect(screen.queryByRole('separator', { name: 'New messages' })).not.toBeInTheDocument();
  });

  test('when lines arrive while the reader has scrolled up, then it stays put and a New messages divider marks the first new one', () => {
    const first = [aChatMessage({ id: 'a' }), aChatMessage({ id: 'b' })];
    const { rerender } = render(<ChatLog messages={first} />);
    const log = screen.getByTestId('chat-log');
    layOut(log, { scrollTop: 200, scrollHeight: 1000, clientHeight: 400 }); // 400 px from the bottom
    log.dispatchEvent(new Event('scroll'));

    const c = aChatMessage({ id: 'c', content: 'third' });
    rerender(<ChatLog messages={[...first, c]} />);
    rerender(<ChatLog messages={[...first, c, aChatMessage({ id: 'd' })]} />);
    expect(log.scrollTop).toBe(200);
    const divider = screen.getByRole('separator', { name: 'New messages' });
    expect(divider.nextElementSibling).toHaveTextContent('third');
    expect(screen.getAllByRole('separator')).toHaveLength(1);

    // back at the bottom: the next line clears the divider
    layOut(log, { scrollTop: 600, scrollHeight: 1000, clientHeight: 400 });
    log.dispatchEvent(new Event('scroll'));
    rerender(<ChatLog messages={[...first, c, aChatMessage({ id: 'e' })]} />);
    expect(screen.queryByRole('separator', { name: 'New messages' })).not.toBeInTheDocument();
  });

  test('when KICKs are gifted and a reward redeemed between messages, then they show as event lines in time order', () => {
    render(
      <ChatLog
        messages={[
          aChatMessage({ id: 'm1', content: 'first', timestamp: '2025-03-01T20:00:00.000Z' }),
          aChatMessage({ id: 'm2', content: 'second', timestamp: '2025-03-01T20:02:00.000Z' }),
        ]}
        events={[
          {
            id: 'event:k1',
            kind: 'kicks-gifted',
            timestamp: '2025-03-01T20:01:00.000Z',
            username: 'generous',
            amount: 100,
            giftName: 'Rage Quit',
            message: 'gg <b>',
          },
          {
            id: 'event:r1',
            kind: 'reward-redeemed',
            timestamp: '2025-03-01T20:03:00.000Z',
            username: 'viewer',
            reward: 'Song request',
            cost: 500,
            input: 'play it',
            status: 'pending',
          },
        ]}
      />,
    );

    const items = within(screen.getByRole('log')).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-testid'))).toEqual([
      'chat-line',
      'chat-event-line',
      'chat-line',
      'chat-event-line',
    ]);
    const [gift, redemption] = screen.getAllByTestId('chat-event-line');
    // text, never HTML
    expect(gift).toHaveTextContent('🎁 generous gifted 100 KICKs: gg <b>');
    expect(redemption).toHaveTextContent('🎯 viewer redeemed Song request (500): play it');
  });

  test('when only event lines exist, then the empty state does not show', () => {
    render(
      <ChatLog
        messages={[]}
        events={[{ id: 'event:f1', kind: 'followed', timestamp: '2025-03-01T20:00:00.000Z', username: 'new_fan' }]}
      />,
    );
    expect(screen.queryByText('No messages yet. Start the bot and begin chatting!')).not.toBeInTheDocument();
    expect(screen.getByTestId('chat-event-line')).toHaveTextContent('❤️ new_fan followed');
  });
});
