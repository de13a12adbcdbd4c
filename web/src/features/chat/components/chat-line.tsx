import { productName } from '../../../config/constants';
import type { ChatMessage } from '../../../lib/socket-events';
import { chatParts } from '../chat-content';
import { badgeOf, formatTime, isCommandText, usernameColor } from '../chat-format';
import { BadgeIcon } from './badge-icon';

/**
 * The line's text as Kick shows it: emotes as images (their name as alt text, so it reads as the
 * name when images are off), web addresses as links that open elsewhere without passing on this page.
 */
function ChatContent({ content }: { content: string }) {
  return chatParts(content).map((part, index) => {
    if (part.kind === 'emote') {
      return (
        <img
          key={index}
          className="chat-emote"
          src={part.src}
          alt={part.name}
          title={part.name}
          width={28}
          height={28}
          loading="lazy"
        />
      );
    }
    if (part.kind === 'link') {
      return (
        <a key={index} className="chat-link" href={part.href} target="_blank" rel="noopener nofollow">
          {part.text}
        </a>
      );
    }
    return part.text;
  });
}

/** One chat line; the text is rendered as text, never as HTML. */
export function ChatLine({ message }: { message: ChatMessage }) {
  const time = formatTime(message.timestamp);
  const text = (
    <span className={`chat-text${isCommandText(message.content) ? ' chat-text-command' : ''}`}>
      <ChatContent content={message.content} />
    </span>
  );

  if (message.isBot) {
    const replyTo = (message.replyTo ?? '').replace(/^@/, '') || 'user';
    return (
      <li className="chat-line chat-line-bot" data-testid="chat-line">
        <div className="chat-reply-to">
          <span aria-hidden="true">↪ </span>Replying to @{replyTo}
        </div>
        <div className="chat-line-main">
          <span className="chat-badge chat-badge-bot" aria-hidden="true">
            <BadgeIcon kind="bot" />
          </span>
          <span className="chat-username chat-username-bot">@{productName}</span>
          {text}
          {time && <time className="chat-time">{time}</time>}
        </div>
      </li>
    );
  }

  const badge = badgeOf(message);
  return (
    <li className="chat-line" data-testid="chat-line">
      <div className="chat-line-main">
        <span className={`chat-badge chat-badge-${badge.kind}`} role="img" aria-label={badge.kind} title={badge.kind}>
          <BadgeIcon kind={badge.kind} />
        </span>
        <span className="chat-username" style={{ color: usernameColor(message.username) }}>
          {message.username}
        </span>
        {text}
        {time && <time className="chat-time">{time}</time>}
      </div>
    </li>
  );
}
