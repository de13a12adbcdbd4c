/**
 * TRUST_PROXY for the owner thread's gateway and services when the front door is in front of
 * them: loopback (the front door, which appends the client's address to X-Forwarded-For) on top
 * of what the operator trusts, so that `req.ip` (rate limits, auth's per-address limits) is the
 * address it is without the front door. Same forms as TRUST_PROXY: "true"/"false", a hop count,
 * or Express's named/CIDR list.
 */
export function trustBehindFrontDoor(trustProxy: string): string {
  if (trustProxy === 'true') return 'true';
  if (trustProxy === 'false') return 'loopback';
  if (/^\d+$/.test(trustProxy)) return String(Number(trustProxy) + 1);
  const listed = trustProxy.split(',').map((entry) => entry.trim());
  return listed.includes('loopback') ? trustProxy : `loopback, ${trustProxy}`;
}
