// The Mantine component styles of the signed-in pages (layout, check, administration, errors),
// instead of all of Mantine's 290 KB stylesheet. In Mantine's own order: rules of one cascade layer
// that tie on specificity go by order, and one element often carries two components' classes (a
// Combobox dropdown is also a Popover dropdown), so no stylesheet here may come before one of
// app.tsx's that builds on it (it would win the ties). Baseline, CSS variables and global rules
// come from app.tsx only. mantine-styles.test.ts fails when a component used in src/ has no
// styles here (or, for the pages outside the layout, in app.tsx), or when the order breaks.
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/FloatingIndicator.layer.css';
import '@mantine/core/styles/Affix.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/CheckboxCard.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Avatar.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Chip.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Drawer.layer.css';
import '@mantine/core/styles/Fieldset.layer.css';
import '@mantine/core/styles/Indicator.layer.css';
import '@mantine/core/styles/Kbd.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Pill.layer.css';
import '@mantine/core/styles/PillsInput.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Pagination.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/RadioCard.layer.css';
import '@mantine/core/styles/RadioIndicator.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/Tree.layer.css';
