import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import classes from '../admin.module.css';

/** A list's search box: the widest filter, first. */
export function SearchField(props: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      className={classes.filterGrow}
      label={props.label}
      placeholder={props.placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={props.value}
      type="search"
      onChange={(event) => props.onChange(event.currentTarget.value)}
    />
  );
}
