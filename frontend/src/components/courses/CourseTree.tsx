import FolderOutlined from '@mui/icons-material/FolderOutlined'
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined'
import QuizOutlined from '@mui/icons-material/QuizOutlined'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { SimpleTreeView } from '@mui/x-tree-view/SimpleTreeView'
import { TreeItem } from '@mui/x-tree-view/TreeItem'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../../api/errors'
import { Loading } from '../Loading'
import { type CourseItemType, type CourseNode, courseTreeQuery, isLeaf, type LeafType } from './api'

/** What picking a resource or a quiz of a course gives. */
export interface PickedCourseItem {
  id: number
  type: LeafType
  name: string
  courseId: number
}

interface CourseTreeProps {
  courseId: number
  /**
   * Pick mode: choosing a resource or a quiz (click, Enter or Space) calls this; groups only open
   * and close. Without it the tree is only read.
   */
  onPick?: (item: PickedCourseItem) => void
  /** The picked item, shown selected. */
  pickedId?: number | null
}

const ICONS = { group: FolderOutlined, resource: MenuBookOutlined, quiz: QuizOutlined } as const

/** The tree's own ids: the course's root apart, so that it never meets one of its items' ids. */
const ROOT_ID = 'course'
const treeId = (node: CourseNode, depth: number) => (depth === 0 ? ROOT_ID : `item-${node.id}`)

/** Every node of the tree by its tree id, and the ids of the groups (all open at first: courses are small). */
function indexTree(root: CourseNode) {
  const nodes = new Map<string, CourseNode>()
  const groups: string[] = []
  const visit = (node: CourseNode, depth: number) => {
    const id = treeId(node, depth)
    nodes.set(id, node)
    if (node.type === 'group') {
      groups.push(id)
      node.children.forEach((child) => visit(child, depth + 1))
    }
  }
  visit(root, 0)
  return { nodes, groups }
}

/**
 * One course of the learning platform as a tree (spec 2 §3 LMS tree node): groups, resources and
 * quizzes, each with its icon and the name of its kind, navigable by keyboard (arrows, Home, End,
 * type-ahead). A removed or unknown course says lmsElementNotFound.
 */
export function CourseTree({ courseId, onPick, pickedId }: CourseTreeProps) {
  const { t } = useTranslation()
  const { data: root, error } = useQuery(courseTreeQuery(courseId))
  const index = useMemo(() => (root ? indexTree(root) : undefined), [root])
  if (error) {
    return <Alert severity="warning">{isApiError(error, 404) ? t('codes.lmsElementNotFound') : t('codes.unexpectedServerError')}</Alert>
  }
  if (!root || !index) return <Loading />

  const pick = (itemId: string) => {
    const node = index.nodes.get(itemId)
    if (onPick && node && isLeaf(node.type)) onPick({ id: node.id, type: node.type, name: node.name, courseId })
  }
  const renderNode = (node: CourseNode, depth: number) => {
    const id = treeId(node, depth)
    return (
      <TreeItem
        key={id}
        itemId={id}
        label={<NodeLabel name={node.name} type={node.type} />}
        disableSelection={!onPick || !isLeaf(node.type)}
      >
        {node.type === 'group' ? node.children.map((child) => renderNode(child, depth + 1)) : undefined}
      </TreeItem>
    )
  }
  return (
    <Box sx={{ minWidth: 0 }}>
      <SimpleTreeView
        aria-label={t('courses.tree.label', { title: root.name })}
        defaultExpandedItems={index.groups}
        disableSelection={!onPick}
        selectedItems={pickedId == null ? null : `item-${pickedId}`}
        onItemSelectionToggle={(_event, itemId, isSelected) => {
          if (isSelected) pick(itemId)
        }}
      >
        {renderNode(root, 0)}
      </SimpleTreeView>
      {root.children.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('courses.tree.empty')}
        </Typography>
      )}
    </Box>
  )
}

/** An element's icon, its name, and the name of its kind (written: the icon alone would say nothing to many). */
export function NodeLabel({ name, type }: { name: string; type: CourseItemType }) {
  const { t } = useTranslation()
  const Icon = ICONS[type]
  return (
    <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, minWidth: 0 }}>
      <Icon fontSize="small" color={type === 'quiz' ? 'secondary' : 'primary'} aria-hidden />
      <Box component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {name}
      </Box>
      <Typography component="span" variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
        {t(`courses.kinds.${type}`)}
      </Typography>
    </Box>
  )
}
