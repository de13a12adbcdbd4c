import type { ImportedSettings, ImportPreviewRow } from '@kickstand/api-contract';
import { commandPrefix } from '../../../config/constants';

/** The other bot's settings in a few words (carried as data; the import writes name and response). */
export function settingsSummary(settings: ImportedSettings): string {
  const parts: string[] = [];
  if (settings.globalCooldownSeconds !== undefined) parts.push(`cooldown ${settings.globalCooldownSeconds} s`);
  if (settings.userCooldownSeconds !== undefined) parts.push(`per viewer ${settings.userCooldownSeconds} s`);
  if (settings.permission) parts.push(settings.permission);
  if (settings.permissionAsExported) parts.push(`${settings.permissionAsExported} (no Kick badge)`);
  if (settings.aliases && settings.aliases.length > 0) parts.push(`aliases: ${settings.aliases.join(', ')}`);
  if (settings.enabled === false) parts.push('disabled');
  return parts.join(' · ');
}

/** One row per command of the export: select it, see its translation, what stays as text, why it cannot be imported. */
export function ImportPreviewTable({
  rows,
  selected,
  onToggle,
}: {
  rows: readonly ImportPreviewRow[];
  selected: ReadonlySet<string>;
  onToggle: (name: string) => void;
}) {
  return (
    <div className="import-table-wrap">
      <table className="import-table">
        <thead>
          <tr>
            <th scope="col">Import</th>
            <th scope="col">Command</th>
            <th scope="col">Response</th>
            <th scope="col">Variables</th>
            <th scope="col">Settings</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={`${index}-${row.name}`} className={row.problem ? 'import-row-problem' : undefined}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Import ${commandPrefix}${row.name}`}
                  checked={!row.problem && selected.has(row.name)}
                  disabled={row.problem !== undefined}
                  onChange={() => onToggle(row.name)}
                />
              </td>
              <td>
                <code className="command-name">
                  {commandPrefix}
                  {row.name}
                </code>
                {row.originalName !== row.name && <div className="muted">was {row.originalName}</div>}
                {row.problem && <div className="field-error">{row.problem}</div>}
              </td>
              <td className="import-response">{row.response}</td>
              <td>
                <ul className="import-variables">
                  {row.translatedVariables.map((variable) => (
                    <li key={variable.from}>
                      <code>{variable.from}</code> → <code>{variable.to}</code>
                    </li>
                  ))}
                  {row.untranslatable.map((variable) => (
                    <li key={variable} className="import-untranslatable">
                      <code>{variable}</code> <span className="import-badge">not translated, kept as text</span>
                    </li>
                  ))}
                </ul>
              </td>
              <td className="muted">{settingsSummary(row.settings)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
