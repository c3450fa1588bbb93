<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="signs" tilewidth="160" tileheight="44" tilecount="6" columns="2">
 <image source="../assets/tiles/signs.png" width="320" height="132"/>
 <tile id="0" type="sign_saloon">
  <properties>
   <property name="terrain" value="sign"/>
  </properties>
 </tile>
 <tile id="1" type="sign_bank">
  <properties>
   <property name="terrain" value="sign"/>
  </properties>
 </tile>
 <tile id="2" type="sign_jail">
  <properties>
   <property name="terrain" value="sign"/>
  </properties>
 </tile>
 <tile id="3" type="sign_lazy_k">
  <properties>
   <property name="terrain" value="sign"/>
  </properties>
 </tile>
 <tile id="4" type="sign_store">
  <properties>
   <property name="terrain" value="sign"/>
  </properties>
 </tile>
 <tile id="5" type="sign_railroad">
  <properties>
   <property name="terrain" value="sign"/>
  </properties>
 </tile>
</tileset>
