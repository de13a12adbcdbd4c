import { render, screen } from '@testing-library/react';
import { Field, FormError } from './field';

describe('Field', () => {
  test('when there is no problem, then the label names the control, which is valid and described by its hint only', () => {
    render(
      <Field label="Aliases" hint="Separated by spaces.">
        {(control) => <input {...control} />}
      </Field>,
    );

    const input = screen.getByRole('textbox', { name: 'Aliases' });
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveAccessibleDescription('Separated by spaces.');
    expect(document.querySelector('.field-error')).toBeNull();
  });

  test('when there is a problem, then the control is invalid and described by its hint and the message, in that order', () => {
    render(
      <Field label="Aliases" hint="Separated by spaces." error="Alias too long.">
        {(control) => <input {...control} />}
      </Field>,
    );

    const input = screen.getByRole('textbox', { name: 'Aliases' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Separated by spaces. Alias too long.');
    expect(screen.getByText('Alias too long.')).toHaveClass('field-error');
  });

  test('when it counts characters, then the counter shares the message’s line, describes the control and warns above its mark', () => {
    const counter = { length: 11, max: 500, warnAbove: 10, testId: 'counter' };
    const { rerender } = render(
      <Field label="Response" counter={counter}>
        {(control) => <textarea {...control} />}
      </Field>,
    );
    const textarea = screen.getByRole('textbox', { name: 'Response' });
    expect(screen.getByTestId('counter')).toHaveTextContent('11/500');
    expect(screen.getByTestId('counter')).toHaveClass('char-counter char-counter-warning');
    expect(textarea).toHaveAccessibleDescription('11/500');

    rerender(
      <Field label="Response" error="Too long." counter={{ ...counter, length: 10 }}>
        {(control) => <textarea {...control} />}
      </Field>,
    );
    expect(screen.getByTestId('counter')).not.toHaveClass('char-counter-warning');
    expect(screen.getByTestId('counter').parentElement?.firstElementChild).toHaveTextContent('Too long.');
    expect(textarea).toHaveAccessibleDescription('10/500 Too long.');
  });
});

describe('FormError', () => {
  test('when there is a message, then it is an alert with it; without one, nothing is shown', () => {
    const { rerender } = render(<FormError message="The timer could not be saved." />);
    expect(screen.getByRole('alert')).toHaveTextContent('The timer could not be saved.');

    rerender(<FormError message={undefined} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
