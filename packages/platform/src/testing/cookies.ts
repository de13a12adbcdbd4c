/** The Cookie header a browser would send back after this answer (e.g. the OAuth link's cookie). */
export function cookieHeaderFrom(answer: { headers: Headers }): string {
  return answer.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(';')[0] ?? '')
    .join('; ');
}
