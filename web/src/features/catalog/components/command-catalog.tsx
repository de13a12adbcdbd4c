import { useId, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useGetCatalogQuery, type CatalogCommand } from '../catalog-api';

const slug = (name: string) => `category-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

function CatalogEntry({ command }: { command: CatalogCommand }) {
  const [isRulesOpen, setRulesOpen] = useState(false);
  const rulesId = useId();
  const rules = command.rules ?? [];
  return (
    <li className="catalog-command card">
      <h3 className="catalog-command-name">
        <code>{command.name}</code>
      </h3>
      <p>{command.description}</p>
      <p className="catalog-example">
        <span className="muted">Example: </span>
        <code>{command.example}</code>
      </p>
      {rules.length > 0 && (
        <>
          <button
            type="button"
            className="button button-ghost button-small"
            aria-expanded={isRulesOpen}
            aria-controls={rulesId}
            onClick={() => setRulesOpen((open) => !open)}
          >
            {isRulesOpen ? 'Hide Rules' : 'Show Rules'}
          </button>
          {isRulesOpen && (
            <ul id={rulesId} className="catalog-rules">
              {rules.map((rule) => (
                <li key={rule}>{rule}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </li>
  );
}

/** The built-in commands by category, read from GET /api/games/catalog (spec §2, public commands page). */
export function CommandCatalogList() {
  const { data, isLoading, isError, refetch } = useGetCatalogQuery();

  if (isLoading) return <Spinner label="Loading commands" />;
  if (isError || !data) {
    return (
      <div className="card empty-state" role="alert">
        <p>The commands could not be loaded.</p>
        <button type="button" className="button button-outline" onClick={() => refetch()}>
          Try again
        </button>
      </div>
    );
  }

  return (
    <div className="catalog">
      {data.categories.map((category) => (
        <section key={category.name} className="catalog-category" aria-labelledby={slug(category.name)}>
          <h2 id={slug(category.name)}>{category.name}</h2>
          {category.commands.length === 0 ? (
            <p className="muted">No commands in this category yet.</p>
          ) : (
            <ul className="catalog-commands">
              {category.commands.map((command) => (
                <CatalogEntry key={command.name} command={command} />
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
