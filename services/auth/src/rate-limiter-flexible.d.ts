// rate-limiter-flexible's base class for custom stores is documented ("any new limiter with storage
// must be extended from RateLimiterStoreAbstract") and typed in its index, but only its file exports
// it at run time.
declare module 'rate-limiter-flexible/lib/RateLimiterStoreAbstract' {
  import { RateLimiterStoreAbstract } from 'rate-limiter-flexible';
  export = RateLimiterStoreAbstract;
}
