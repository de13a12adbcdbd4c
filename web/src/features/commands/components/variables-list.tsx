import { useGetCommandVariablesQuery } from '../commands-api';

/** What a response may contain, from GET /api/commands/variables. */
export function VariablesList() {
  const { data: variables = [], isError } = useGetCommandVariablesQuery();
  if (isError || variables.length === 0) return null;
  return (
    <details className="variables card">
      <summary>Variables you can use in a response</summary>
      <dl className="variables-list">
        {variables.map((variable) => (
          <div key={variable.name} className="variable">
            <dt>
              <code>{variable.name}</code>
            </dt>
            <dd>{variable.description}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
