import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined'
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined'
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline'
import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined'
import FlagOutlined from '@mui/icons-material/FlagOutlined'
import RemoveCircleOutline from '@mui/icons-material/RemoveCircleOutlineOutlined'
import Chip from '@mui/material/Chip'
import Stack from '@mui/material/Stack'
import type SvgIcon from '@mui/material/SvgIcon'
import { useTranslation } from 'react-i18next'
import type { DifferenceKind } from './types'

type Colour = 'success' | 'error' | 'info' | 'warning' | 'secondary' | 'primary'

/** Each kind of difference has its icon, its colour and its text: never told by colour alone. */
export const DIFFERENCE_LOOKS: Record<DifferenceKind, { icon: typeof SvgIcon; colour: Colour }> = {
  added: { icon: AddCircleOutline, colour: 'success' },
  removed: { icon: RemoveCircleOutline, colour: 'error' },
  renamed: { icon: DriveFileRenameOutline, colour: 'primary' },
  textChanged: { icon: EditNoteOutlined, colour: 'info' },
  statusChanged: { icon: FlagOutlined, colour: 'warning' },
  moved: { icon: DriveFileMoveOutlined, colour: 'secondary' },
}

export const differenceLabelKey = (kind: DifferenceKind) => `subjects.mindMap.marks.${kind}` as const

/** The differences of one node, each an outlined chip with its icon and its words. */
export function DifferenceChips({ kinds }: { kinds: readonly DifferenceKind[] }) {
  const { t } = useTranslation()
  if (kinds.length === 0) return null
  return (
    <Stack direction="row" component="span" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {kinds.map((kind) => {
        const { icon: Icon, colour } = DIFFERENCE_LOOKS[kind]
        return <Chip key={kind} component="span" size="small" variant="outlined" color={colour} icon={<Icon />} label={t(differenceLabelKey(kind))} />
      })}
    </Stack>
  )
}
