import { zodResolver } from '@hookform/resolvers/zod';
import { useLayoutEffect, useRef } from 'react';
import type { FieldValues, Resolver, UseFormRegisterReturn } from 'react-hook-form';
import type { z } from 'zod';
import { Field } from '../../../components/ui/field';
import { commandPrefix, maxResponseLength, responseWarningLength } from '../../../config/constants';

/**
 * react-hook-form's resolver for a schema that depends on the other commands' names: the list
 * changes while the form is open (a command added elsewhere), so it checks against the names of
 * the moment.
 */
export function useNamesResolver<T extends FieldValues>(
  schemaOf: (names: readonly string[]) => z.ZodType<T, T>,
  names: readonly string[],
): Resolver<T> {
  const namesRef = useRef(names);
  useLayoutEffect(() => {
    namesRef.current = names;
  });
  return (values, context, options) => zodResolver(schemaOf(namesRef.current))(values, context, options);
}

/** The command's name, after the `$` it is typed with in chat. */
export function CommandNameField({ error, input }: { error: string | undefined; input: UseFormRegisterReturn }) {
  return (
    <Field label="Command name" error={error}>
      {(control) => (
        <div className="input-with-prefix">
          <span className="input-prefix" aria-hidden="true">
            {commandPrefix}
          </span>
          <input {...control} {...input} autoComplete="off" spellCheck={false} placeholder="hello" data-autofocus />
        </div>
      )}
    </Field>
  );
}

/** The response, with its length counted against the limit (warning near it). */
export function ResponseField({
  error,
  length,
  input,
}: {
  error: string | undefined;
  length: number;
  input: UseFormRegisterReturn;
}) {
  return (
    <Field
      label="Response"
      error={error}
      counter={{
        length,
        max: maxResponseLength,
        warnAbove: responseWarningLength,
        testId: 'response-counter',
      }}
    >
      {(control) => <textarea {...control} {...input} rows={3} placeholder="Hello {user}, welcome to the stream!" />}
    </Field>
  );
}
