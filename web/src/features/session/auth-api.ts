import { api, dataOf, type ApiSuccess } from '../../lib/api';

export type Role = 'USER' | 'SUPER_ADMIN';

/** The spec's KickAccount (§3); createdAt is the link date. */
export interface KickAccount {
  kickUsername: string;
  kickEmail: string | null;
  profilePicture: string | null;
  createdAt: string;
}

/** The spec's User (§3). */
export interface User {
  id: string;
  username: string;
  email: string;
  role: Role;
  isActive: boolean;
  lastLogin: string | null;
  createdAt: string;
  botEnabled: boolean;
  kickAccount: KickAccount | null;
  _count: { commands: number };
}

export interface Session {
  user: User;
  token: string;
}

export interface LoginBody {
  email: string;
  password: string;
}

export interface RegisterBody {
  email: string;
  username: string;
  password: string;
}

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
