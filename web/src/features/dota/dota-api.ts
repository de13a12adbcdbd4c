import type { GamesSettings, GamesSettingsInput } from '@kickstand/api-contract';
import { api, dataOf, type ApiSuccess } from '../../lib/api';

/** GET/PUT /api/games/settings: the streamer's Steam account id, which $mmr and $rank look up. */
export type GameSettings = GamesSettings;

export const dotaApi = api.injectEndpoints({
  endpoints: (build) => ({
    getGameSettings: build.query<GameSettings, void>({
      query: () => '/games/settings',
      transformResponse: (body: ApiSuccess<GameSettings>) => dataOf(body),
      providesTags: ['GameSettings'],
    }),
    updateGameSettings: build.mutation<void, GamesSettingsInput>({
      query: (body) => ({ url: '/games/settings', method: 'PUT', body }),
      invalidatesTags: ['GameSettings'],
    }),
  }),
});

export const { useGetGameSettingsQuery, useUpdateGameSettingsMutation } = dotaApi;
