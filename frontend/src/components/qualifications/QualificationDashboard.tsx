import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import ToggleButton from '@mui/material/ToggleButton'
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup'
import Typography from '@mui/material/Typography'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { trainingPathPath } from '../../lib/paths'
import type { DashboardShown } from './shown'
import type { DashboardChild, DashboardElement, DashboardItem, DashboardLink, ValidityState } from './types'
import { VALIDITY_STATES, validityColour, validityText } from './validity'

export type DashboardLinkTo = (link: DashboardLink) => string | undefined
/** What a page adds to a child's row, at its end (a button, and what it opens beneath the row). */
export type ChildDetails = (child: DashboardChild) => ReactNode

/** How many of an item's children the legend shows, from its counts by state (all its children). */
export function shownCount(item: DashboardItem, states: readonly ValidityState[]): number {
  return states.reduce((sum, state) => sum + item.counts[state], 0)
}

/**
 * A qualification dashboard (spec 2 §2 Dashboards, §4): the legend's three toggles (more than a month
 * left, less than a month left, not validated; all on at first) choose which children are shown; each
 * item shows its name, how many of its children are obtained, and those children with their validity
 * and their validation and requalification paths. An item whose children are all hidden is hidden too.
 * The server sends the children of the legend's states, the first ones of each item (backend
 * qualifications/dashboards.py Shown): "Show all" asks for the rest of one item. `linkTo` gives the
 * address of an item or child (undefined: its name is not a link); `childDetails` what a page adds
 * to each child's row.
 */
export function QualificationDashboard({
  elements,
  linkTo,
  shown,
  onStatesChange,
  onExpand,
  headingLevel = 'h2',
  childDetails,
}: {
  elements: readonly DashboardElement[]
  linkTo: DashboardLinkTo
  shown: DashboardShown
  onStatesChange: (states: ValidityState[]) => void
  onExpand: (itemId: number) => void
  /** The level of the items' names among the page's headings. */
  headingLevel?: 'h2' | 'h3'
  childDetails?: ChildDetails
}) {
  const { t } = useTranslation()
  const visible = elements.filter(({ item }) => item.total === 0 || shownCount(item, shown.states) > 0)
  return (
    <Stack spacing={2}>
      <ToggleButtonGroup
        value={shown.states}
        onChange={(_event, states: ValidityState[]) => onStatesChange(states)}
        aria-label={t('qualificationStatus.dashboard.legend')}
        size="small"
        sx={{ flexWrap: 'wrap' }}
      >
        {VALIDITY_STATES.map((state) => (
          <ToggleButton key={state} value={state} sx={{ textTransform: 'none', gap: 1 }}>
            <StateDot state={state} />
            {t(`qualificationStatus.dashboard.states.${state}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {elements.length === 0 ? (
        <Typography color="text.secondary">{t('qualificationStatus.dashboard.empty')}</Typography>
      ) : visible.length === 0 ? (
        <Typography color="text.secondary">{t('qualificationStatus.dashboard.nothingShown')}</Typography>
      ) : (
        visible.map((element) => (
          <DashboardItemView
            key={`${element.item.link.type}-${element.item.id}`}
            element={element}
            hidden={shownCount(element.item, shown.states) - element.children.length}
            onExpand={() => onExpand(element.item.id)}
            linkTo={linkTo}
            headingLevel={headingLevel}
            childDetails={childDetails}
          />
        ))
      )}
    </Stack>
  )
}

function DashboardItemView({
  element,
  hidden,
  onExpand,
  linkTo,
  headingLevel,
  childDetails,
}: {
  element: DashboardElement
  /** Children in the legend's states that the answer left out. */
  hidden: number
  onExpand: () => void
  linkTo: DashboardLinkTo
  headingLevel: 'h2' | 'h3'
  childDetails?: ChildDetails
}) {
  const { t, i18n } = useTranslation()
  const { item } = element
  // An item over people (a qualification or a module, its children the people concerned) counts them;
  // only a person's own item (its children their modules) has a validity of its own to show.
  const overPeople = element.children.some((child) => child.link.type === 'user')
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={item.name}
      data-testid="dashboard-item"
      sx={{ p: 2, borderLeftWidth: 4, borderLeftColor: overPeople ? 'divider' : colourOf(item.state) }}
    >
      <Stack direction="row" sx={{ alignItems: 'baseline', columnGap: 1.5, rowGap: 0.5, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component={headingLevel} sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'anywhere' }}>
          <NameLink address={linkTo(item.link)}>{item.name}</NameLink>
        </Typography>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('qualificationStatus.dashboard.obtained', { obtained: item.obtained, total: item.total })}
        </Typography>
        {item.total > 0 && !overPeople && (
          <Typography variant="body2" sx={{ color: textColourOf(item.state) }}>
            {validityText(item, t, i18n.language)}
          </Typography>
        )}
      </Stack>
      {item.total === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('qualificationStatus.dashboard.noChild')}
        </Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', m: 0, mt: 1, p: 0 }}>
          {element.children.map((child) => (
            <ChildRow key={`${child.link.type}-${child.id}`} child={child} linkTo={linkTo} details={childDetails} />
          ))}
        </Box>
      )}
      {hidden > 0 && (
        <Button size="small" onClick={onExpand} sx={{ mt: 1 }}>
          {t('qualificationStatus.dashboard.showAll', { count: element.children.length + hidden })}
        </Button>
      )}
    </Paper>
  )
}

function ChildRow({ child, linkTo, details }: { child: DashboardChild; linkTo: DashboardLinkTo; details?: ChildDetails }) {
  const { t, i18n } = useTranslation()
  return (
    <Box
      component="li"
      data-state={child.state}
      sx={{ display: 'flex', alignItems: 'baseline', columnGap: 1.5, rowGap: 0.25, flexWrap: 'wrap', py: 0.75, borderTop: 1, borderColor: 'divider' }}
    >
      <StateDot state={child.state} />
      <Typography variant="body2" sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere' }}>
        <NameLink address={linkTo(child.link)}>{child.name}</NameLink>
      </Typography>
      <Typography variant="body2" sx={{ color: textColourOf(child.state) }}>
        {validityText(child, t, i18n.language)}
      </Typography>
      {child.validationTrainingPath != null && (
        <Link component={RouterLink} to={trainingPathPath(child.validationTrainingPath)} variant="body2" underline="hover">
          {t('qualificationStatus.dashboard.validationPath')}
        </Link>
      )}
      {child.requalificationTrainingPath != null && (
        <Link component={RouterLink} to={trainingPathPath(child.requalificationTrainingPath)} variant="body2" underline="hover">
          {t('qualificationStatus.dashboard.requalificationPath')}
        </Link>
      )}
      {details?.(child)}
    </Box>
  )
}

function NameLink({ address, children }: { address: string | undefined; children: ReactNode }) {
  if (address === undefined) return <>{children}</>
  return (
    <Link component={RouterLink} to={address} underline="hover">
      {children}
    </Link>
  )
}

function colourOf(state: ValidityState): string {
  const colour = validityColour(state)
  return colour === 'grey' ? 'grey.400' : `${colour}.main`
}

/** Text in a state's hue, dark enough to read (DESIGN §4). */
function textColourOf(state: ValidityState): string {
  const colour = validityColour(state)
  return colour === 'grey' ? 'text.secondary' : `${colour}.text`
}

function StateDot({ state }: { state: ValidityState }) {
  return <Box aria-hidden component="span" sx={{ width: 10, height: 10, borderRadius: '50%', flex: 'none', bgcolor: colourOf(state), alignSelf: 'center' }} />
}
