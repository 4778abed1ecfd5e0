# Types TEXT into the interval of tier TIER at time AT and saves the TextGrid as Praat saves it:
# a text file (long format) or a short text file, UTF-16 when TEXT is not ASCII.
# With TEXT "-remove-", removes the tier instead.
form Edit
    sentence Grid
    sentence Out
    sentence Tier transcription
    real At 0
    sentence Text
    boolean Short 0
endform
grid = Read from file: grid$
tiers = Get number of tiers
number = 0
for tier to tiers
    name$ = Get tier name: tier
    if name$ = tier$
        number = tier
    endif
endfor
if text$ = "-remove-"
    Remove tier: number
else
    interval = Get interval at time: number, at
    Set interval text: number, interval, text$
endif
if short
    Save as short text file: out$
else
    Save as text file: out$
endif
