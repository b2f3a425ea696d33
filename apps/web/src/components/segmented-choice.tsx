import { useId } from 'react';
import classes from './segmented-choice.module.css';

export interface SegmentedChoiceProps<Value extends string> {
  value: Value;
  onChange: (value: Value) => void;
  data: readonly { value: Value; label: string }[];
  'aria-label': string;
  size?: 'xs' | 'sm';
  className?: string;
  'data-testid'?: string;
}

/**
 * One of a few options, as Mantine's SegmentedControl looks: native radios in a radiogroup (arrow
 * keys move the choice, as in any radio group), styled by CSS only, so drawing it measures nothing.
 */
export function SegmentedChoice<Value extends string>({
  value,
  onChange,
  data,
  size = 'sm',
  className,
  ...aria
}: SegmentedChoiceProps<Value>) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={aria['aria-label']}
      data-testid={aria['data-testid']}
      data-size={size}
      className={className ? `${classes.root} ${className}` : classes.root}
    >
      {data.map((option) => (
        <label key={option.value} className={classes.option}>
          <input
            type="radio"
            className={classes.input}
            name={name}
            value={option.value}
            checked={option.value === value}
            onChange={() => onChange(option.value)}
          />
          <span className={classes.label}>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
