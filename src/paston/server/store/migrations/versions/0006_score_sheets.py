"""Score sheets of games played with real cards (``/sheet``): one row a sheet.

Revision ID: 0006_score_sheets
Revises: 0005_fence
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_score_sheets"
down_revision = "0005_fence"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "score_sheets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("deals", sa.JSON(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_score_sheets_creator", "score_sheets", ["creator"])
    op.create_index("ix_score_sheets_created", "score_sheets", ["created"])


def downgrade() -> None:
    op.drop_index("ix_score_sheets_created", table_name="score_sheets")
    op.drop_index("ix_score_sheets_creator", table_name="score_sheets")
    op.drop_table("score_sheets")
