"""Fencing tokens for a cluster of servers (server/cluster): the table's current token,
and the token of the owner that committed each action.

Revision ID: 0005_fence
Revises: 0004_analysis
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_fence"
down_revision = "0004_analysis"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("fence", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("actions", sa.Column("fence", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("fence")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fence")
