export { cutChatLine, kickChatMaxLength, stripControlCharacters } from './chat-text';
