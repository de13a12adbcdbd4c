// The first pass, against Kickstand with the sandbox following Kick's documentation (and
// TIMER_MINUTE_MS=1000 for timer-scenarios.mjs): every scenario, in order.
import { browserUiScenarios } from './browser-ui-scenarios.mjs';
import { eventMessageScenarios } from './event-messages-scenarios.mjs';
import { defineScenarios } from './fixtures.mjs';
import { moderationScenarios } from './moderation-scenarios.mjs';
import { scenarios } from './scenarios.mjs';
import { teamScenarios } from './team-scenarios.mjs';
import { timerScenarios } from './timer-scenarios.mjs';

defineScenarios('journey and admin', scenarios);
defineScenarios('browser-ui', browserUiScenarios);
defineScenarios('timers', timerScenarios);
defineScenarios('event messages', eventMessageScenarios);
defineScenarios('moderation', moderationScenarios);
defineScenarios('team', teamScenarios);
