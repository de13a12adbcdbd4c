import { Router } from 'express';
import { z } from 'zod';
import type { Chat } from '../chat';
import type { ChatMessageDoc } from '../repository';
import { userCaller } from './auth';
import { arrivalOf } from './call-recorder';
import { parseKick } from './kick-errors';
import { bodyUserId } from './query';

/** Kick counts characters; a code point is one character here (an emoji counts once) [?]. */
const characters = (value: string) => Array.from(value).length;

/** §5.1's body; the lean route (lean-chat.ts) parses with it too. */
export const sendChatSchema = z
  .object({
    type: z.enum(['user', 'bot']),
    content: z.string().refine((value) => characters(value) >= 1 && characters(value) <= 500),
    broadcaster_user_id: bodyUserId.optional(),
    reply_to_message_id: z.string().min(1).max(64).optional(),
  })
  .refine((body) => body.type === 'bot' || body.broadcaster_user_id !== undefined);

const messageIdParamSchema = z.object({ message_id: z.string().min(1).max(64) });

/** Real Kick sometimes accepts a message and drops it (kick-api.md §5.1: treat is_sent false as a failure). */
export const sentAnswer = (message: ChatMessageDoc | null) => ({
  data: { is_sent: message !== null, message_id: message?._id ?? '' },
  message: 'OK',
});

/** §5.1 `POST /chat` and §5.2 `DELETE /chat/{message_id}`. */
export function chatRoutes({ chat }: { chat: Chat }): Router {
  const router = Router();

  router.post('/chat', async (req, res) => {
    const caller = userCaller(req, 'chat:write');
    const body = parseKick(sendChatSchema, req.body);
    const message = await chat.sendFromApi(caller.userId, {
      type: body.type,
      content: body.content,
      broadcasterUserId: body.broadcaster_user_id,
      replyToMessageId: body.reply_to_message_id,
      acceptedAt: arrivalOf(req),
    });
    res.json(sentAnswer(message));
  });

  router.delete('/chat/:message_id', async (req, res) => {
    const caller = userCaller(req, 'moderation:chat_message:manage');
    const { message_id: messageId } = parseKick(messageIdParamSchema, req.params);
    await chat.deleteFromApi(caller.userId, messageId);
    res.status(204).end();
  });

  return router;
}
