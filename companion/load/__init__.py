"""A hosted server under load (`python -m companion bench tables|hostile|db-hour`): devices
speaking Flet's websocket protocol as its web client does, without a browser."""
