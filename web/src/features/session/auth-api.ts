import type { LoginBody, RegisterBody, Session, UserView } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (auth answers them).
export type { LoginBody, RegisterBody, Role, Session } from '@kickstand/api-contract';
/** The spec's User (§3). */
export type User = UserView;
/** The spec's KickAccount (§3); createdAt is the link date. */
export type KickAccount = NonNullable<UserView['kickAccount']>;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<Session, LoginBody>({
      query: (body) => ({ url: '/platform/login', method: 'POST', body }),
      transformResponse: (body: ApiSuccess<Session>) => dataOf(body),
    }),
    register: build.mutation<Session, RegisterBody>({
      query: (body) => ({ url: '/platform/register', method: 'POST', body }),
      transformResponse: (body: ApiSuccess<Session>) => dataOf(body),
    }),
    getProfile: build.query<User, void>({
      query: () => '/platform/profile',
      transformResponse: (body: ApiSuccess<User>) => dataOf(body),
      providesTags: ['Profile'],
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation, useGetProfileQuery } = authApi;
