// Runs after the jsdom environment is set up, before each web test file.
import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { setSocket } from '../lib/socket';
import { FakeSocket } from './fake-socket';

// jsdom leaves these out; react-router uses them.
Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? TextEncoder });
Object.assign(globalThis, { TextDecoder: globalThis.TextDecoder ?? TextDecoder });

// jsdom has no fetch API classes; react-router's data router only builds a Request for each
// navigation (url, method, signal), so this much of one is enough.
if (typeof globalThis.Request === 'undefined') {
  class NavigationRequest {
    readonly url: string;
    readonly method: string;
    readonly signal: AbortSignal;
    constructor(input: string | URL | { url: string }, init: { method?: string; signal?: AbortSignal } = {}) {
      this.url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      this.method = (init.method ?? 'GET').toUpperCase();
      this.signal = init.signal ?? new AbortController().signal;
    }
  }
  Object.assign(globalThis, { Request: NavigationRequest });
}

// jsdom's <dialog> has no showModal/close: the open attribute is the same dialog without the top layer
if (typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

// jsdom has no layout: no scrolling.
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;

beforeEach(() => {
  // no test talks to a real server: a fake socket (a test may put its own) and storage starts empty
  setSocket(new FakeSocket().asSocket());
  window.localStorage.clear();
  window.sessionStorage.clear();
});
