import { useEffect, useState } from 'react';
import { splashTimings } from '../../../config/constants';

export const splashSteps = [
  'Authenticating user',
  'Connecting to server',
  'Loading bot status',
  'Initializing dashboard',
] as const;

export type StepState = 'completed' | 'active' | 'pending';

export const stepState = (index: number, activeStep: number): StepState =>
  index < activeStep ? 'completed' : index === activeStep ? 'active' : 'pending';

export interface SplashInput {
  /** Arrived from login with a linked Kick account: the 4-step progress splash. Read once, at mount. */
  isProgress: boolean;
  isAuthenticated: boolean;
  isSocketConnected: boolean;
  isBotInitialized: boolean;
}

/**
 * The dashboard's loading splash (spec §2, §9). Progress: a step every 800 ms; done 4 s after
 * auth, socket and bot state are ready. Plain: done 500 ms after auth and socket are ready. Either
 * way a 15 s timeout forces it done.
 */
export function useSplash(input: SplashInput): { isDone: boolean; isProgress: boolean; activeStep: number } {
  const [isProgress] = useState(input.isProgress);
  const [isDone, setDone] = useState(false);
  const [activeStep, setActiveStep] = useState(0);

  useEffect(() => {
    const timer = setTimeout(() => setDone(true), splashTimings.forcedTimeoutMs);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (!isProgress || isDone) return;
    const timer = setInterval(
      () => setActiveStep((step) => Math.min(step + 1, splashSteps.length - 1)),
      splashTimings.stepMs,
    );
    return () => clearInterval(timer);
  }, [isProgress, isDone]);

  const isReady = input.isAuthenticated && input.isSocketConnected && (!isProgress || input.isBotInitialized);
  useEffect(() => {
    if (!isReady || isDone) return;
    const timer = setTimeout(
      () => setDone(true),
      isProgress ? splashTimings.waitAfterReadyMs : splashTimings.plainAfterReadyMs,
    );
    return () => clearTimeout(timer);
  }, [isReady, isDone, isProgress]);

  return { isDone, isProgress, activeStep };
}
