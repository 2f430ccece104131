import Circle from '@mui/icons-material/Circle'
import Chip from '@mui/material/Chip'
import { useTranslation } from 'react-i18next'
import type { NodeStatus } from './api'

const COLOURS = { empty: 'grey.400', inProgress: 'info.main', toValidate: 'warning.main', validated: 'success.main' } as const satisfies Record<
  NodeStatus,
  string
>

/** The status of the subject's main mind-map node: a coloured dot beside readable text. */
export function NodeStatusChip({ status }: { status: NodeStatus | null }) {
  const { t } = useTranslation()
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<Circle />}
      label={t(`subjects.nodeStatus.${status ?? 'none'}`)}
      title={t('subjects.mainNodeStatus')}
      sx={{ bgcolor: 'background.paper', '& .MuiChip-icon': { fontSize: 10, color: status ? COLOURS[status] : 'grey.300' } }}
    />
  )
}
