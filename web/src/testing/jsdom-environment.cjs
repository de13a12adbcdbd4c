// The web tests' environment: jsdom, plus Node's fetch API and the globals MSW needs, which jsdom
// leaves out (the set jest-fixed-jsdom gives, without its FormData: jsdom's one reads a <form>, as
// react-router does on submit; ours send JSON).
const JSDOMEnvironment = require('jest-environment-jsdom').default;

class JsdomWithFetchEnvironment extends JSDOMEnvironment {
  constructor(...args) {
    super(...args);
    // resolve packages as Node does (MSW's node entry), not as a browser would
    this.customExportConditions = [''];
    Object.assign(this.global, {
      TextDecoder,
      TextEncoder,
      TextDecoderStream,
      TextEncoderStream,
      ReadableStream,
      WritableStream,
      TransformStream,
      Blob,
      Headers,
      Request,
      Response,
      fetch,
      AbortController,
      AbortSignal,
      structuredClone,
      URL,
      URLSearchParams,
      BroadcastChannel,
    });
  }
}

module.exports = JsdomWithFetchEnvironment;
