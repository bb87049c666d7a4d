
/host:metadata"tw003