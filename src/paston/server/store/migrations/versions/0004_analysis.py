"""The analysis of each finished deal, computed once and kept.

Revision ID: 0004_analysis
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_analysis"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "deal", "level"),
    )
    op.create_index("ix_analyses_table_id", "analyses", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_analyses_table_id", table_name="analyses")
    op.drop_table("analyses")
