import {
  commandMessages,
  commandNameSchema,
  maxAliasesPerCommand,
  maxCooldownSeconds,
  type CommandPermission,
  type CommandSettings,
} from '@kickstand/api-contract';

// How the dashboard shows and reads a command's settings (issue 19). The rules are the contract's;
// the server checks them again (aliases also against the other commands and the built-in ones).

export const permissionLabels: Record<CommandPermission, string> = {
  everyone: 'Everyone',
  subscribers: 'Subscribers',
  vips: 'VIPs',
  moderators: 'Moderators',
  broadcaster: 'Broadcaster only',
};

/** "1 s", "2 min", "1 h 30 min": a cooldown as people say it. */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = [hours > 0 ? `${hours} h` : '', minutes > 0 ? `${minutes} min` : '', rest > 0 ? `${rest} s` : ''];
  return parts.filter((part) => part !== '').join(' ');
}

/** One line under a command: who may run it and its cooldowns, e.g. "VIPs · cooldown 5 s · per viewer 1 min · mods exempt". */
export function settingsSummary(settings: Omit<CommandSettings, 'enabled' | 'aliases'>): string {
  const parts = [
    permissionLabels[settings.permission],
    settings.globalCooldownSeconds > 0 ? `cooldown ${formatSeconds(settings.globalCooldownSeconds)}` : 'no cooldown',
  ];
  if (settings.userCooldownSeconds > 0) parts.push(`per viewer ${formatSeconds(settings.userCooldownSeconds)}`);
  const hasCooldown = settings.globalCooldownSeconds > 0 || settings.userCooldownSeconds > 0;
  if (hasCooldown && settings.modsExempt) parts.push('mods exempt');
  return parts.join(' · ');
}

/** The aliases as typed in one field: separated by blanks or commas, each without a leading `$`. */
export function parseAliases(typed: string): string[] {
  return typed
    .split(/[\s,]+/)
    .map((alias) => (alias.startsWith('$') ? alias.slice(1) : alias))
    .filter((alias) => alias !== '');
}

/** The first problem of the typed aliases (the name rules, the count, a repeat of the command's own name); undefined when none. */
export function aliasesProblem(aliases: readonly string[], commandName: string): string | undefined {
  if (aliases.length > maxAliasesPerCommand) return commandMessages.tooManyAliases;
  const seen = new Set([commandName.trim().toLowerCase()]);
  for (const alias of aliases) {
    if (!commandNameSchema.safeParse(alias).success) return commandMessages.aliasInvalid(alias);
    const key = alias.toLowerCase();
    if (seen.has(key)) return commandMessages.aliasRepeated(alias);
    seen.add(key);
  }
  return undefined;
}

/** A cooldown field's problem (whole seconds, 0 to a day); undefined when fine. */
export function cooldownProblem(typed: string): string | undefined {
  const value = Number(typed);
  const isValid = typed.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= maxCooldownSeconds;
  return isValid ? undefined : commandMessages.cooldown;
}
