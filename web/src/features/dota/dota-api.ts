import { api, dataOf, type ApiSuccess } from '../../lib/api';

/** GET/PUT /api/games/settings: the streamer's Steam account id, which $mmr and $rank look up. */
export interface GameSettings {
  /** The 32-bit account id; a PUT may also send a 64-bit SteamID (digits), which the server converts. */
  steamAccountId: number | string | null;
}

export const dotaApi = api.injectEndpoints({
  endpoints: (build) => ({
    getGameSettings: build.query<GameSettings, void>({
      query: () => '/games/settings',
      transformResponse: (body: ApiSuccess<GameSettings>) => dataOf(body),
      providesTags: ['GameSettings'],
    }),
    updateGameSettings: build.mutation<void, GameSettings>({
      query: (body) => ({ url: '/games/settings', method: 'PUT', body }),
      invalidatesTags: ['GameSettings'],
    }),
  }),
});

export const { useGetGameSettingsQuery, useUpdateGameSettingsMutation } = dotaApi;
