"""Deals shuffled by every seat: the algorithm and the seats' seeds of each deal.

Revision ID: 0003
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("deals", sa.Column("algorithm", sa.String(32), nullable=True))
    op.add_column("deals", sa.Column("seeds", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.drop_column("seeds")
        batch.drop_column("algorithm")
