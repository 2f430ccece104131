import Image from '@mui/icons-material/ImageOutlined'
import InsertDriveFile from '@mui/icons-material/InsertDriveFileOutlined'
import Link from '@mui/icons-material/Link'
import PictureAsPdf from '@mui/icons-material/PictureAsPdfOutlined'
import YouTube from '@mui/icons-material/YouTube'
import type { SvgIconProps } from '@mui/material/SvgIcon'
import type { ResourceType } from './rules'

const ICONS = { image: Image, pdf: PictureAsPdf, file: InsertDriveFile, link: Link, youtube: YouTube }

/** The icon of a kind of resource, shown where it has no thumbnail. */
export function ResourceIcon({ type, ...props }: { type: ResourceType } & SvgIconProps) {
  const Icon = ICONS[type]
  return <Icon aria-hidden {...props} />
}
