"""map subjects history

Revision ID: 41b0db33640a
Revises: 308da449a8a1
Create Date: 2026-11-22 16:04:26.230788
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '41b0db33640a'
down_revision: str | None = '308da449a8a1'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('map_item_id',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=20), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_map_item_id'))
    )
    op.create_table('site',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('code', sa.String(length=100), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_site')),
    sa.UniqueConstraint('code', name=op.f('uq_site_code'))
    )
    op.create_table('cartography',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=100), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('ordering', sa.Integer(), nullable=False),
    sa.Column('image_ref', sa.String(length=64), nullable=True),
    sa.Column('image_media_type', sa.String(length=40), nullable=True),
    sa.Column('image_sha256', sa.String(length=64), nullable=True),
    sa.Column('image_width', sa.Integer(), nullable=False),
    sa.Column('image_height', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_cartography_site_id_site'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_cartography')),
    sa.UniqueConstraint('site_id', 'code', name='uq_cartography_site_code')
    )
    with op.batch_alter_table('cartography', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cartography_site_id'), ['site_id'], unique=False)

    op.create_table('cartography_visibility',
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('item_type', sa.String(length=30), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['group.id'], name=op.f('fk_cartography_visibility_group_id_group'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('group_id', 'item_type', 'item_id', name=op.f('pk_cartography_visibility'))
    )
    with op.batch_alter_table('cartography_visibility', schema=None) as batch_op:
        batch_op.create_index('ix_cartography_visibility_item', ['item_type', 'item_id'], unique=False)

    op.create_table('history_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('item_type', sa.String(length=30), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('item_key', sa.String(length=100), nullable=False),
    sa.Column('item_name', sa.String(length=300), nullable=False),
    sa.Column('mode', sa.String(length=1), nullable=False),
    sa.Column('event', sa.String(length=40), nullable=True),
    sa.Column('cartography_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_history_entry_user_id_user'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_history_entry'))
    )
    with op.batch_alter_table('history_entry', schema=None) as batch_op:
        batch_op.create_index('ix_history_entry_at', ['at'], unique=False)
        batch_op.create_index('ix_history_entry_cartography_mode', ['cartography_id', 'mode'], unique=False)
        batch_op.create_index('ix_history_entry_item', ['item_type', 'item_id', 'at'], unique=False)
        batch_op.create_index('ix_history_entry_user_at', ['user_id', 'at'], unique=False)

    op.create_table('activity',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('cartography_id', sa.Integer(), nullable=False),
    sa.Column('parent_id', sa.Integer(), nullable=True),
    sa.Column('ordering', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=100), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.ForeignKeyConstraint(['cartography_id'], ['cartography.id'], name=op.f('fk_activity_cartography_id_cartography'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['parent_id'], ['activity.id'], name=op.f('fk_activity_parent_id_activity'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_activity')),
    sa.UniqueConstraint('cartography_id', 'code', name='uq_activity_cartography_code')
    )
    with op.batch_alter_table('activity', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_activity_cartography_id'), ['cartography_id'], unique=False)
        batch_op.create_index('ix_activity_parent', ['parent_id', 'ordering'], unique=False)

    op.create_table('function',
    sa.Column('id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('cartography_id', sa.Integer(), nullable=False),
    sa.Column('ordering', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=100), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.ForeignKeyConstraint(['cartography_id'], ['cartography.id'], name=op.f('fk_function_cartography_id_cartography'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_function')),
    sa.UniqueConstraint('cartography_id', 'code', name='uq_function_cartography_code')
    )
    with op.batch_alter_table('function', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_function_cartography_id'), ['cartography_id'], unique=False)

    op.create_table('zone',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('cartography_id', sa.Integer(), nullable=False),
    sa.Column('ordering', sa.Integer(), nullable=False),
    sa.Column('item_type', sa.String(length=30), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('x', sa.Float(), nullable=False),
    sa.Column('y', sa.Float(), nullable=False),
    sa.Column('width', sa.Float(), nullable=False),
    sa.Column('height', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['cartography_id'], ['cartography.id'], name=op.f('fk_zone_cartography_id_cartography'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_zone'))
    )
    with op.batch_alter_table('zone', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_zone_cartography_id'), ['cartography_id'], unique=False)

    op.create_table('pictogram',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('cartography_id', sa.Integer(), nullable=False),
    sa.Column('activity_id', sa.Integer(), nullable=False),
    sa.Column('image_ref', sa.String(length=64), nullable=False),
    sa.Column('image_media_type', sa.String(length=40), nullable=False),
    sa.Column('image_sha256', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['activity_id'], ['activity.id'], name=op.f('fk_pictogram_activity_id_activity'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['cartography_id'], ['cartography.id'], name=op.f('fk_pictogram_cartography_id_cartography'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pictogram')),
    sa.UniqueConstraint('activity_id', name=op.f('uq_pictogram_activity_id'))
    )
    with op.batch_alter_table('pictogram', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pictogram_cartography_id'), ['cartography_id'], unique=False)

    op.create_table('subject',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=100), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('type', sa.String(length=20), nullable=False),
    sa.Column('cartography_id', sa.Integer(), nullable=False),
    sa.Column('function_id', sa.Integer(), nullable=False),
    sa.Column('activity_id', sa.Integer(), nullable=False),
    sa.Column('frequency', sa.Integer(), nullable=False),
    sa.Column('gravity', sa.Integer(), nullable=False),
    sa.Column('detectability', sa.Integer(), nullable=False),
    sa.Column('criticity_score', sa.Integer(), nullable=True),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('updated_by', sa.Integer(), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('followed_by', sa.Integer(), nullable=True),
    sa.Column('followed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('resolved_by', sa.Integer(), nullable=True),
    sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('criticity_by', sa.Integer(), nullable=True),
    sa.Column('criticity_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('standardized_by', sa.Integer(), nullable=True),
    sa.Column('standardized_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('standardized_comment', sa.Text(), nullable=False),
    sa.Column('has_diagram', sa.Boolean(), nullable=False),
    sa.Column('picture_ref', sa.String(length=64), nullable=True),
    sa.Column('picture_media_type', sa.String(length=40), nullable=True),
    sa.Column('picture_sha256', sa.String(length=64), nullable=True),
    sa.Column('last_mindmap_update', sa.DateTime(timezone=True), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['activity_id'], ['activity.id'], name=op.f('fk_subject_activity_id_activity'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['cartography_id'], ['cartography.id'], name=op.f('fk_subject_cartography_id_cartography'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['created_by'], ['user.id'], name=op.f('fk_subject_created_by_user'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['criticity_by'], ['user.id'], name=op.f('fk_subject_criticity_by_user'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['followed_by'], ['user.id'], name=op.f('fk_subject_followed_by_user'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['function_id'], ['function.id'], name=op.f('fk_subject_function_id_function'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['resolved_by'], ['user.id'], name=op.f('fk_subject_resolved_by_user'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['standardized_by'], ['user.id'], name=op.f('fk_subject_standardized_by_user'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['updated_by'], ['user.id'], name=op.f('fk_subject_updated_by_user'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_subject')),
    sa.UniqueConstraint('cartography_id', 'code', name='uq_subject_cartography_code')
    )
    with op.batch_alter_table('subject', schema=None) as batch_op:
        batch_op.create_index('ix_subject_activity', ['activity_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_created_by'), ['created_by'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_criticity_at'), ['criticity_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_criticity_by'), ['criticity_by'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_criticity_score'), ['criticity_score'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_followed_at'), ['followed_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_followed_by'), ['followed_by'], unique=False)
        batch_op.create_index('ix_subject_function', ['function_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_resolved_at'), ['resolved_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_resolved_by'), ['resolved_by'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_standardized_at'), ['standardized_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_standardized_by'), ['standardized_by'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_updated_at'), ['updated_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_subject_updated_by'), ['updated_by'], unique=False)

    op.create_table('mind_map_item',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('subject_id', sa.Integer(), nullable=False),
    sa.Column('code', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=300), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['subject_id'], ['subject.id'], name=op.f('fk_mind_map_item_subject_id_subject'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mind_map_item')),
    sa.UniqueConstraint('subject_id', 'code', name='uq_mind_map_item_subject_code')
    )
    with op.batch_alter_table('mind_map_item', schema=None) as batch_op:
        batch_op.create_index('ix_mind_map_item_status', ['status'], unique=False)

    op.create_table('subject_visit',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('subject_id', sa.Integer(), nullable=False),
    sa.Column('visited_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['subject_id'], ['subject.id'], name=op.f('fk_subject_visit_subject_id_subject'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_subject_visit_user_id_user'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'subject_id', name=op.f('pk_subject_visit'))
    )
    with op.batch_alter_table('subject_visit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_subject_visit_subject_id'), ['subject_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('subject_visit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_subject_visit_subject_id'))

    op.drop_table('subject_visit')
    with op.batch_alter_table('mind_map_item', schema=None) as batch_op:
        batch_op.drop_index('ix_mind_map_item_status')

    op.drop_table('mind_map_item')
    with op.batch_alter_table('subject', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_subject_updated_by'))
        batch_op.drop_index(batch_op.f('ix_subject_updated_at'))
        batch_op.drop_index(batch_op.f('ix_subject_standardized_by'))
        batch_op.drop_index(batch_op.f('ix_subject_standardized_at'))
        batch_op.drop_index(batch_op.f('ix_subject_resolved_by'))
        batch_op.drop_index(batch_op.f('ix_subject_resolved_at'))
        batch_op.drop_index('ix_subject_function')
        batch_op.drop_index(batch_op.f('ix_subject_followed_by'))
        batch_op.drop_index(batch_op.f('ix_subject_followed_at'))
        batch_op.drop_index(batch_op.f('ix_subject_criticity_score'))
        batch_op.drop_index(batch_op.f('ix_subject_criticity_by'))
        batch_op.drop_index(batch_op.f('ix_subject_criticity_at'))
        batch_op.drop_index(batch_op.f('ix_subject_created_by'))
        batch_op.drop_index(batch_op.f('ix_subject_created_at'))
        batch_op.drop_index('ix_subject_activity')

    op.drop_table('subject')
    with op.batch_alter_table('pictogram', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pictogram_cartography_id'))

    op.drop_table('pictogram')
    with op.batch_alter_table('zone', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_zone_cartography_id'))

    op.drop_table('zone')
    with op.batch_alter_table('function', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_function_cartography_id'))

    op.drop_table('function')
    with op.batch_alter_table('activity', schema=None) as batch_op:
        batch_op.drop_index('ix_activity_parent')
        batch_op.drop_index(batch_op.f('ix_activity_cartography_id'))

    op.drop_table('activity')
    with op.batch_alter_table('history_entry', schema=None) as batch_op:
        batch_op.drop_index('ix_history_entry_user_at')
        batch_op.drop_index('ix_history_entry_item')
        batch_op.drop_index('ix_history_entry_cartography_mode')
        batch_op.drop_index('ix_history_entry_at')

    op.drop_table('history_entry')
    with op.batch_alter_table('cartography_visibility', schema=None) as batch_op:
        batch_op.drop_index('ix_cartography_visibility_item')

    op.drop_table('cartography_visibility')
    with op.batch_alter_table('cartography', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cartography_site_id'))

    op.drop_table('cartography')
    op.drop_table('site')
    op.drop_table('map_item_id')
