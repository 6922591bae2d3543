"""The table service: create/join/seat/start/act/rematch around the rules engine."""
