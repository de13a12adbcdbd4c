// Runs after the jsdom environment is set up, before each web test file.
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { setSocket } from '../lib/socket';
import { FakeSocket } from './fake-socket';

// fetch, Request, TextEncoder and the rest of what jsdom leaves out come from jsdom-environment.cjs.

// findBy… and waitFor wait up to 5 s instead of 1: a route's page is loaded lazily, and on a loaded
// CI machine its first import (compiled on the fly) took over a second (/kick-error, 27 November).
// A test that passes is no slower; only a failing one takes longer to say so.
configure({ asyncUtilTimeout: 5000 });

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
