// The second pass, against a fresh Kickstand with the sandbox behaving like real Kick
// (KICK_SANDBOX_REAL_KICK=1): the streamer's journey again.
import { defineScenarios } from './fixtures.mjs';
import { realKickScenarios } from './scenarios.mjs';

defineScenarios('journey', realKickScenarios);
